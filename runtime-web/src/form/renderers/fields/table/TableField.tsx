/**
 * The `table` field (spec 000 §3 table, §5 "Table", §8, §9; 001 §3-§5, §8, §9), with TanStack Table:
 * typed columns (text with its mask, number and date with their format, boolean by its display rule,
 * formula columns run per row in the sandbox, buttons), cells edited in place (view, then edit with
 * check and close), search, sorting by the headers, grouping by groupBy, pagination (first size
 * pagination.start, sizes of selectOptions), child rows (child_row markdown under a row), head buttons
 * and header colours. Buttons run the form's actions through store.runAction with their row.
 * Long lists render only the rows in view (@tanstack/react-virtual): 2,000 rows scroll as 20 would.
 * Value: the list of row objects.
 */
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
} from 'react'
import {
  useTable,
  type ExpandedState,
  type PaginationState,
  type Row as TanRow,
  type SortingState,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { fillPlaceholders } from '@tramita/contract'
import type { FieldProps } from '../../../types.js'
import { useForm } from '../../../context.js'
import type { FormStore } from '../../../store.js'
import { browserScripting } from '../../../scripts.js'
import { escapeMarkdown } from '../../elements/escape_markdown.js'
import { isComputed, pageSizes, readTableConfig, withCell, type Row, type TableButtonConfig } from './cells.js'
import {
  conditionHolds,
  evaluateTable,
  runButtonAction,
  runPerRow,
  scriptNames,
  type ScriptOutcome,
  type TableScripts,
} from './formulas.js'
import {
  buildColumnDefs,
  buildRecords,
  leafCount,
  searchable,
  searchFilter,
  TABLE_FEATURES,
  type Features,
  type TableRecord,
} from './model.js'
import { ChildRow, DataRow, GroupRow, TableButton, useLatest, type RowContext } from './TableRows.js'
import { useTableTexts } from './texts.js'
import '../media/media.css'
import './table.css'

/** From this many rows on, only the rows in view are rendered. */
export const VIRTUAL_FROM = 60
/** Height of the scrolling body when rows are virtualised. */
const VIRTUAL_HEIGHT = '28rem'
const ESTIMATED_ROW = 38

type Render = (text: string) => string
let markdownLoading: Promise<Render> | undefined
const loadMarkdown = () => (markdownLoading ??= import('../../elements/markdown.js').then((m) => m.renderMarkdown))

/** Formula and condition results for the rows, from the form's sandbox worker; kept while newer ones compute. */
function useTableScripts(config: ReturnType<typeof readTableConfig>, rows: readonly Row[]): TableScripts | undefined {
  const needed = useMemo(
    () =>
      config.columns.some(
        (c) => isComputed(c) || (c.type === 'buttons' && c.buttons.some((b) => b.formule.trim() !== ''))
      ),
    [config.columns]
  )
  const [result, setResult] = useState<{ rows: readonly Row[]; scripts: TableScripts }>()
  useEffect(() => {
    if (!needed) return
    let live = true
    void browserScripting()
      .then(({ runner }) => evaluateTable(runner, config.columns, rows))
      .then((scripts) => {
        if (live) setResult({ rows, scripts })
      })
    return () => {
      live = false
    }
  }, [needed, config.columns, rows])
  // Results for an older list of the same length still line up row by row: shown until the new ones come.
  return result && result.rows.length === rows.length ? result.scripts : undefined
}

/** Re-renders when one of the named fields changes. */
function useFieldsTick(store: FormStore, names: readonly string[]): string {
  const key = names.join('\u0000')
  const subscribe = useCallback(
    (listener: () => void) => {
      const offs = names.map((name) => store.subscribeField(name, listener))
      return () => offs.forEach((off) => off())
    },
    // `key` stands for `names`: a new array with the same names keeps the subscription.
    [store, key]
  )
  return useSyncExternalStore(subscribe, () => names.map((name) => store.fieldTick(name)).join(','))
}

/** Head buttons' conditions, run with the form's values (and process variables) they read. */
function useHeadConditions(store: FormStore, buttons: readonly TableButtonConfig[]): (ScriptOutcome | undefined)[] {
  const names = useMemo(
    () => [...new Set(buttons.flatMap((b) => (b.formule.trim() ? scriptNames(b.formule).names : [])))],
    [buttons]
  )
  const tick = useFieldsTick(store, names)
  const [outcomes, setOutcomes] = useState<(ScriptOutcome | undefined)[]>([])
  useEffect(() => {
    if (!buttons.some((b) => b.formule.trim())) return
    let live = true
    const scope: Row = { ...store.vars }
    for (const name of names) if (store.item(name)) scope[name] = store.value(name)
    void browserScripting().then(async ({ runner }) => {
      const known = new Set<string>()
      const results = await Promise.all(
        buttons.map((b) =>
          b.formule.trim() ? runPerRow(runner, b.formule, [scope], known).then((r) => r[0]) : undefined
        )
      )
      if (live) setOutcomes(results)
    })
    return () => {
      live = false
    }
  }, [store, buttons, names, tick])
  return outcomes
}

type Item =
  | { kind: 'row'; row: TanRow<Features, TableRecord> }
  | { kind: 'group'; row: TanRow<Features, TableRecord> }
  | { kind: 'child'; row: TanRow<Features, TableRecord> }

export function TableField({ item, value, onChange, inputId, readOnly, disabled }: FieldProps<Row[]>) {
  const { t, language } = useTableTexts()
  const { store } = useForm()
  const ref = (item.data.ref as typeof item.data.ref & { table?: unknown }).table
  const config = useMemo(() => readTableConfig(ref), [ref])
  const shownColumns = useMemo(() => config.columns.filter((c) => c.show), [config.columns])
  const rows = useMemo(() => (Array.isArray(value) ? value : []), [value])
  const scripts = useTableScripts(config, rows)
  const texts = useMemo(
    () => ({
      yes: t('table.yes'),
      no: t('table.no'),
      invalidDate: t('invalid_date'),
      invalidNumber: t('invalid_number'),
      missing: (name: string) => t('variable_not_found', { name }),
      computing: t('table.computing'),
    }),
    [t]
  )
  const records = useMemo(
    () => buildRecords(rows, config.columns, scripts, config.uniqueKey, language, texts),
    [rows, config.columns, scripts, config.uniqueKey, language, texts]
  )
  const columnDefs = useMemo(
    () => buildColumnDefs(config.columns, config.groupBy, language),
    [config.columns, config.groupBy, language]
  )
  const searchColumns = useMemo(() => searchable(config.columns), [config.columns])

  const sizes = pageSizes(config.pagination)
  // Without the pager bar there is no way to change pages: every row shows (virtualised).
  const paged = config.pagination.showBar
  const [sorting, setSorting] = useState<SortingState>([])
  const [globalFilter, setGlobalFilter] = useState('')
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: sizes.initial })
  // Groups start open; true means every row, until one is closed.
  const [expanded, setExpanded] = useState<ExpandedState>(true)
  const grouping = useMemo(() => (config.groupBy ? [config.groupBy] : []), [config.groupBy])
  const [openChildren, setOpenChildren] = useState<ReadonlySet<string>>(() => new Set())

  const table = useTable({
    features: TABLE_FEATURES,
    columns: columnDefs,
    data: records,
    getRowId: (record) => record.id,
    state: { sorting, globalFilter, pagination, expanded, grouping },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onPaginationChange: setPagination,
    onExpandedChange: setExpanded,
    globalFilterFn: searchFilter,
    getColumnCanGlobalFilter: (column) => searchColumns.has(column.id),
    groupedColumnMode: false,
    // An edit replaces the value: the page, the open groups and the order stay where the user left them.
    autoResetPageIndex: false,
    autoResetExpanded: false,
    manualPagination: !paged,
    enableSortingRemoval: true,
    // Every column sorts ascending first (TanStack would start numbers descending).
    sortDescFirst: false,
  })

  const rowsRef = useLatest(rows)
  const onChangeRef = useLatest(onChange)
  const handlers = useMemo(
    () => ({
      commit: (index: number, column: string, cell: unknown) =>
        onChangeRef.current(withCell(rowsRef.current, index, column, cell)),
      press: (button: TableButtonConfig, record: TableRecord) => void runButtonAction(store, button, record.row),
      toggleChild: (id: string) =>
        setOpenChildren((open) => {
          const next = new Set(open)
          if (!next.delete(id)) next.add(id)
          return next
        }),
    }),
    [store, rowsRef, onChangeRef]
  )
  const idPrefix = `${inputId}-t`
  const hasChild = config.child_row.trim() !== ''
  const context: RowContext = useMemo(
    () => ({
      t,
      columns: shownColumns,
      scripts,
      editable: !readOnly && !disabled,
      enabled: !disabled,
      hasChild,
      handlers,
      idPrefix,
    }),
    [t, shownColumns, scripts, readOnly, disabled, hasChild, handlers, idPrefix]
  )

  const modelRows = table.getRowModel().rows
  const items = useMemo(() => {
    const out: Item[] = []
    for (const row of modelRows) {
      if (row.getIsGrouped()) out.push({ kind: 'group', row })
      else {
        out.push({ kind: 'row', row })
        if (hasChild && openChildren.has(row.id)) out.push({ kind: 'child', row })
      }
    }
    return out
  }, [modelRows, hasChild, openChildren])

  const [render, setRender] = useState<Render>()
  useEffect(() => {
    if (hasChild && !render) void loadMarkdown().then((fn) => setRender(() => fn))
  }, [hasChild, render])

  const headConditions = useHeadConditions(store, config.headButtons)
  const searchId = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtual = items.length >= VIRTUAL_FROM
  const head: CSSProperties = { background: config.header_background, color: config.header_color }
  const span = shownColumns.length + (hasChild ? 1 : 0)
  const total = table.getPrePaginatedRowModel().rows.length
  const { pageIndex, pageSize } = table.state.pagination
  const pages = paged ? Math.max(1, table.getPageCount()) : 1
  const from = total === 0 ? 0 : paged ? pageIndex * pageSize + 1 : 1
  const to = paged ? Math.min(total, (pageIndex + 1) * pageSize) : total

  const renderItem = (entry: Item, position: number, measure?: (node: HTMLTableRowElement | null) => void) => {
    const rowIndex = position + 2
    const { row } = entry
    if (entry.kind === 'group') {
      return (
        <GroupRow
          key={`g:${row.id}`}
          label={String(row.getGroupingValue(row.groupingColumnId!) ?? '')}
          count={leafCount(row)}
          expanded={row.getIsExpanded()}
          onToggle={() => row.toggleExpanded()}
          span={span}
          rowIndex={rowIndex}
          depth={row.depth}
          measure={measure}
          virtualIndex={measure ? position : undefined}
          t={t}
        />
      )
    }
    const record = row.original
    if (entry.kind === 'child') {
      const text = fillPlaceholders(config.child_row, (name) => {
        const shown = record.shown[name]?.text
        if (shown !== undefined) return escapeMarkdown(shown)
        const raw = record.row[name]
        return raw === undefined ? undefined : escapeMarkdown(raw === null ? '' : String(raw))
      })
      return (
        <ChildRow
          key={`c:${row.id}`}
          html={render?.(text)}
          text={text}
          span={span}
          id={`${idPrefix}-child-${record.index}`}
          rowIndex={rowIndex}
          measure={measure}
          virtualIndex={measure ? position : undefined}
        />
      )
    }
    return (
      <DataRow
        key={row.id}
        record={record}
        context={context}
        childOpen={openChildren.has(row.id)}
        rowIndex={rowIndex}
        measure={measure}
        virtualIndex={measure ? position : undefined}
      />
    )
  }

  return (
    <div className={`ftable media-table${disabled ? ' media--disabled' : ''}`} data-testid="table-field">
      {(config.search_show || config.headButtons.length > 0) && (
        <div className="ftable__bar">
          {config.search_show && (
            <div className="ftable__search">
              <label htmlFor={searchId} className="visually-hidden">
                {t('table.search')}
              </label>
              <input
                id={searchId}
                type="search"
                placeholder={t('table.search')}
                value={globalFilter}
                onChange={(event) => {
                  setGlobalFilter(event.currentTarget.value)
                  setPagination((p) => ({ ...p, pageIndex: 0 }))
                }}
              />
            </div>
          )}
          {config.headButtons.length > 0 && (
            <div className="ftable__head-buttons" role="group" aria-label={t('table.head_buttons')}>
              {config.headButtons.map((button, i) => (
                <TableButton
                  key={i}
                  button={button}
                  holds={conditionHolds(button, headConditions[i])}
                  enabled={!disabled}
                  onPress={() => void runButtonAction(store, button)}
                  describedBy={`${idPrefix}-head-why-${i}`}
                />
              ))}
            </div>
          )}
        </div>
      )}
      <div
        ref={scrollRef}
        className={`ftable__scroll media-table__scroll${virtual ? ' ftable__scroll--virtual' : ''}`}
        style={virtual ? { maxHeight: VIRTUAL_HEIGHT } : undefined}
        id={inputId}
        tabIndex={0}
        role="region"
        aria-label={item.data.label.value || item.field_name}
      >
        <table aria-rowcount={items.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              {hasChild && (
                <th scope="col" style={head} className="ftable__toggle-cell">
                  <span className="visually-hidden">{t('table.details')}</span>
                </th>
              )}
              {shownColumns.map((column) => {
                const tanColumn = table.getColumn(column.name)
                const sortable = tanColumn?.getCanSort() ?? false
                const sorted = tanColumn?.getIsSorted() ?? false
                const label = column.label || column.name
                return (
                  <th
                    key={column.name}
                    scope="col"
                    style={head}
                    data-type={column.type}
                    aria-sort={
                      sortable
                        ? sorted === 'asc'
                          ? 'ascending'
                          : sorted === 'desc'
                            ? 'descending'
                            : 'none'
                        : undefined
                    }
                  >
                    {sortable ? (
                      <button
                        type="button"
                        className="ftable__sort"
                        style={{ color: config.header_color }}
                        title={t('table.sort', { column: label })}
                        onClick={() => tanColumn?.toggleSorting()}
                      >
                        {label}
                        <span aria-hidden="true" className="ftable__arrow">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                )
              })}
            </tr>
          </thead>
          {virtual ? (
            <VirtualBody items={items} scrollRef={scrollRef} renderItem={renderItem} span={span} />
          ) : (
            <tbody>
              {items.map((entry, position) => renderItem(entry, position))}
              {items.length === 0 && (
                <tr>
                  <td colSpan={Math.max(1, span)} className="media-empty">
                    {globalFilter ? t('table.no_match') : t('table.empty')}
                  </td>
                </tr>
              )}
            </tbody>
          )}
        </table>
      </div>
      {paged && (
        <nav className="ftable__pager media-table__pager" aria-label={t('table.pages')}>
          <span data-testid="table-range" aria-live="polite">
            {t('table.range', { from, to, total })}
          </span>
          <button
            type="button"
            className="media-icon-button"
            disabled={!table.getCanPreviousPage()}
            aria-label={t('table.first')}
            onClick={() => table.firstPage()}
          >
            «
          </button>
          <button
            type="button"
            className="media-icon-button"
            disabled={!table.getCanPreviousPage()}
            aria-label={t('table.previous')}
            onClick={() => table.previousPage()}
          >
            ‹
          </button>
          <span>{t('table.page', { page: Math.min(pageIndex + 1, pages), pages })}</span>
          <button
            type="button"
            className="media-icon-button"
            disabled={!table.getCanNextPage()}
            aria-label={t('table.next')}
            onClick={() => table.nextPage()}
          >
            ›
          </button>
          <button
            type="button"
            className="media-icon-button"
            disabled={!table.getCanNextPage()}
            aria-label={t('table.last')}
            onClick={() => table.lastPage()}
          >
            »
          </button>
          {config.pagination.showSelect && (
            <label>
              <span>{t('table.size')}</span>
              <select
                value={pageSize}
                onChange={(event) => setPagination({ pageIndex: 0, pageSize: Number(event.currentTarget.value) })}
              >
                {sizes.offered.map((n) => (
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

/**
 * The rows in view and a spacer row above and below them: the table keeps its semantics (real rows,
 * aria-rowindex), and scrolling re-renders this body only, not the table around it.
 */
function VirtualBody({
  items,
  scrollRef,
  renderItem,
  span,
}: {
  items: readonly Item[]
  scrollRef: React.RefObject<HTMLDivElement | null>
  renderItem: (entry: Item, position: number, measure?: (node: HTMLTableRowElement | null) => void) => React.ReactNode
  span: number
}) {
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => `${items[index]!.kind}:${items[index]!.row.id}`,
    overscan: 8,
  })
  const shown = virtualizer.getVirtualItems()
  const before = shown.length > 0 ? shown[0]!.start : 0
  const after = shown.length > 0 ? virtualizer.getTotalSize() - shown[shown.length - 1]!.end : 0
  return (
    <tbody>
      {before > 0 && (
        <tr aria-hidden="true" className="ftable__spacer">
          <td colSpan={span} style={{ height: before }} />
        </tr>
      )}
      {shown.map((entry) => renderItem(items[entry.index]!, entry.index, virtualizer.measureElement))}
      {after > 0 && (
        <tr aria-hidden="true" className="ftable__spacer">
          <td colSpan={span} style={{ height: after }} />
        </tr>
      )}
    </tbody>
  )
}
