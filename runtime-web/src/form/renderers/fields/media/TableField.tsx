/**
 * The `table` field, read-only in this issue (spec 000 §3 table, §5, §9): the shown columns typed text,
 * number, boolean, date; formula columns show '—' until the action-engine issue computes them; header
 * colours from the settings; a search box when search_show; pages of pagination.start rows (10) with
 * the sizes of selectOptions ('10,20,30'). Value: the list of row objects.
 */
import { useId, useMemo, useState, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import {
  pageSizeOptions,
  parseTableDate,
  TABLE_MESSAGE_KEYS,
  TABLE_PAGE_OPTIONS,
  TABLE_PAGE_SIZE,
} from '@tramita/contract'
import type { FieldProps } from '../../../types.js'
import { pageOf, searchRows } from './media_rules.js'
import './media.css'

type Row = Record<string, unknown>

interface TableSettings {
  columns: unknown[]
  search_show: boolean
  pagination?: { start?: number; size?: number; showBar?: boolean; showSelect?: boolean; selectOptions?: string }
  header_background: string
  header_color: string
}

interface Column {
  name: string
  label: string
  show: boolean
  type: string
  fontsize: number
  bold: boolean
  display?: { true?: { text?: string; color?: string }; false?: { text?: string; color?: string } }
  buttons?: { text: string }[]
}

/** What a cell shows, as text (also what the search looks in). */
function cellText(column: Column, raw: unknown, t: (key: string) => string, numbers: Intl.NumberFormat): string {
  if (raw === null || raw === undefined || raw === '') return column.type === 'formule' ? '—' : ''
  switch (column.type) {
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).replace(',', '.'))
      return Number.isFinite(n) ? numbers.format(n) : t(TABLE_MESSAGE_KEYS.invalidNumber)
    }
    case 'boolean': {
      const on = raw === true || raw === 1 || String(raw).toLowerCase() === 'true'
      return column.display?.[on ? 'true' : 'false']?.text || t(on ? 'media_ui.table.yes' : 'media_ui.table.no')
    }
    case 'date': {
      const date = parseTableDate(raw)
      if (!date) return t(TABLE_MESSAGE_KEYS.invalidDate)
      // A date written without a time shows without one.
      return typeof raw === 'string' && /^\d{4}[-/]\d{2}[-/]\d{2}$/.test(raw.trim())
        ? date.slice(0, 10)
        : date.replace('T', ' ')
    }
    case 'formule':
      // Formula cells are computed per row in the sandbox by the action-engine issue; until then a dash.
      return '—'
    case 'buttons':
      return ''
    default:
      return typeof raw === 'object' ? JSON.stringify(raw) : String(raw)
  }
}

export function TableField({ item, value, inputId, disabled }: FieldProps<Row[]>) {
  const { t, i18n } = useTranslation()
  // data.ref is typed with the common keys only; the table type adds `table` (contract types/table.ts).
  const settings = (item.data.ref as typeof item.data.ref & { table: TableSettings }).table
  const columns = useMemo(() => (settings.columns as Column[]).filter((c) => c.show !== false), [settings.columns])
  const rows = useMemo(() => (Array.isArray(value) ? value : []), [value])
  const pagination = settings.pagination ?? {}
  const sizes = pageSizeOptions(pagination.selectOptions ?? TABLE_PAGE_OPTIONS)
  const [size, setSize] = useState<number>(pagination.start || TABLE_PAGE_SIZE)
  const [page, setPage] = useState(0)
  const [query, setQuery] = useState('')
  const searchId = useId()
  const numbers = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language])

  const texts = useMemo(
    () => rows.map((row) => columns.map((column) => cellText(column, row[column.name], t, numbers))),
    [rows, columns, t, numbers]
  )
  const indexes = useMemo(() => rows.map((_, index) => index), [rows])
  const found = searchRows(indexes, query, (index) => texts[index]!)
  const slice = pageOf(found, page, size)
  const head: CSSProperties = { background: settings.header_background, color: settings.header_color }
  const offered = sizes.includes(size) ? sizes : [...sizes, size].sort((a, b) => a - b)

  return (
    <div className={`media-table${disabled ? ' media--disabled' : ''}`} data-testid="table-field">
      {settings.search_show && (
        <div className="media-table__search">
          <label htmlFor={searchId} className="visually-hidden">
            {t('media_ui.table.search')}
          </label>
          <input
            id={searchId}
            type="search"
            placeholder={t('media_ui.table.search')}
            value={query}
            onChange={(event) => {
              setQuery(event.currentTarget.value)
              setPage(0)
            }}
          />
        </div>
      )}
      <div
        className="media-table__scroll"
        id={inputId}
        tabIndex={0}
        role="region"
        aria-label={item.data.label.value || item.field_name}
      >
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.name} scope="col" style={head}>
                  {column.label || column.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {slice.rows.map((index) => (
              <tr key={index} data-row={index}>
                {columns.map((column, c) => {
                  const raw = rows[index]![column.name]
                  const on = raw === true || String(raw).toLowerCase() === 'true'
                  const color = column.type === 'boolean' ? column.display?.[on ? 'true' : 'false']?.color : undefined
                  return (
                    <td
                      key={column.name}
                      data-type={column.type}
                      style={{
                        fontSize: column.fontsize,
                        fontWeight: column.bold ? 700 : undefined,
                        color: color || undefined,
                      }}
                    >
                      {column.type === 'buttons'
                        ? // Row buttons run actions: the action-engine issue makes them usable; shown greyed meanwhile.
                          (column.buttons ?? []).map((b, i) => (
                            <button key={i} type="button" className="media-button" disabled>
                              {b.text}
                            </button>
                          ))
                        : texts[index]![c]}
                    </td>
                  )
                })}
              </tr>
            ))}
            {slice.rows.length === 0 && (
              <tr>
                <td colSpan={Math.max(1, columns.length)} className="media-empty">
                  {query ? t('media_ui.table.no_match') : t('media_ui.table.empty')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {pagination.showBar !== false && (
        <nav className="media-table__pager" aria-label={t('media_ui.table.pages')}>
          <span data-testid="table-range">
            {t('media_ui.table.range', { from: slice.from, to: slice.to, total: found.length })}
          </span>
          <button
            type="button"
            className="media-icon-button"
            disabled={slice.page === 0}
            aria-label={t('media_ui.table.previous')}
            onClick={() => setPage(slice.page - 1)}
          >
            ‹
          </button>
          <span>{t('media_ui.table.page', { page: slice.page + 1, pages: slice.pages })}</span>
          <button
            type="button"
            className="media-icon-button"
            disabled={slice.page >= slice.pages - 1}
            aria-label={t('media_ui.table.next')}
            onClick={() => setPage(slice.page + 1)}
          >
            ›
          </button>
          {pagination.showSelect !== false && (
            <label>
              <span>{t('media_ui.table.size')}</span>
              <select
                value={size}
                onChange={(event) => {
                  setSize(Number(event.currentTarget.value))
                  setPage(0)
                }}
              >
                {offered.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
        </nav>
      )}
    </div>
  )
}
