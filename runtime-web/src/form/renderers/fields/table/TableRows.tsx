/**
 * The table's rows and cells: a data row (shown cells, editable cells, button cells, the child-row
 * toggle), a group row and a child row. Rows are memoised on their record, so scrolling a virtualised
 * table renders only the rows that come into view and an edit re-renders only its row.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react'
import type { TFunction } from 'i18next'
import { tableButtonState, tableCellInput } from '@tramita/contract'
import {
  editorValue,
  iconGlyph,
  parseEditor,
  type ShownCell,
  type TableButtonConfig,
  type TableColumnConfig,
} from './cells.js'
import { buttonKey, conditionHolds, type TableScripts } from './formulas.js'
import type { TableRecord } from './model.js'

export interface RowHandlers {
  /** Stores an edited cell of the row at `index` (a position in the field's value). */
  commit(index: number, column: string, value: unknown): void
  /** Runs a row button's action with its row. */
  press(button: TableButtonConfig, record: TableRecord): void
  toggleChild(id: string): void
}

export interface RowContext {
  t: TFunction
  columns: readonly TableColumnConfig[]
  scripts: TableScripts | undefined
  /** Cells may be edited (not a read-only case, not disabled). */
  editable: boolean
  /** Buttons are enabled at all (the field is not disabled). */
  enabled: boolean
  hasChild: boolean
  handlers: RowHandlers
  /** DOM id prefix for aria-controls and the like. */
  idPrefix: string
}

export function cellStyle(column: TableColumnConfig, shown?: ShownCell): CSSProperties {
  return {
    fontSize: column.fontsize,
    fontWeight: column.bold ? 700 : undefined,
    color: shown?.color || undefined,
  }
}

function ShownValue({ shown }: { shown: ShownCell }) {
  const glyph = iconGlyph(shown.icon)
  return (
    <>
      {glyph && (
        <span className="ftable__icon" aria-hidden="true">
          {glyph}
        </span>
      )}
      {shown.text}
    </>
  )
}

/** A row or head button: usable only when the field is enabled and its condition holds; greyed with text_error otherwise. */
export function TableButton({
  button,
  holds,
  enabled,
  onPress,
  describedBy,
}: {
  button: TableButtonConfig
  holds: boolean | undefined
  enabled: boolean
  onPress(): void
  describedBy: string
}) {
  const state = tableButtonState({ enabled, conditionResult: holds, text_error: button.text_error })
  const glyph = iconGlyph(button.icon)
  const style: CSSProperties = state.usable
    ? { background: button.background || undefined, color: button.color || undefined }
    : {}
  return (
    <span className="ftable__button-wrap">
      <button
        type="button"
        className={`ftable__button${state.greyed ? ' ftable__button--greyed' : ''}`}
        style={style}
        // aria-disabled rather than disabled: the button stays focusable, so its reason can be read.
        aria-disabled={state.greyed || undefined}
        aria-describedby={state.greyed && state.title ? describedBy : undefined}
        title={state.title || undefined}
        onClick={() => {
          if (state.usable) onPress()
        }}
      >
        {glyph && (
          <span className="ftable__icon" aria-hidden="true">
            {glyph}
          </span>
        )}
        {button.text || button.action}
      </button>
      {state.greyed && state.title && (
        <span className="ftable__why" id={describedBy}>
          {state.title}
        </span>
      )}
    </span>
  )
}

/** A cell the user may change: view (the value and an edit button), edit (the editor, check and close). */
function EditableCell({
  column,
  record,
  shown,
  t,
  onCommit,
}: {
  column: TableColumnConfig
  record: TableRecord
  shown: ShownCell
  t: TFunction
  onCommit(value: unknown): void
}) {
  const [draft, setDraft] = useState<string | boolean | null>(null)
  const [error, setError] = useState<string | null>(null)
  const editButton = useRef<HTMLButtonElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const returnFocus = useRef(false)
  const editing = draft !== null
  const kind = tableCellInput(column.type).kind
  const label = column.label || column.name

  useLayoutEffect(() => {
    if (editing) input.current?.focus()
    else if (returnFocus.current) {
      returnFocus.current = false
      editButton.current?.focus()
    }
  }, [editing])

  const close = () => {
    returnFocus.current = true
    setDraft(null)
    setError(null)
  }
  const confirm = () => {
    const parsed = parseEditor(column, draft ?? '', input.current?.validity.badInput ?? false)
    if (!parsed.ok) {
      setError(t(parsed.message))
      input.current?.focus()
      return
    }
    onCommit(parsed.value)
    close()
  }
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      confirm()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close()
    }
  }

  if (!editing) {
    return (
      <div className="ftable__view">
        <span className="ftable__value">
          <ShownValue shown={shown} />
        </span>
        <button
          ref={editButton}
          type="button"
          className="ftable__tool"
          aria-label={t('table.edit', { column: `${label} (${record.index + 1})` })}
          onClick={() => setDraft(editorValue(column, record.row[column.name]))}
        >
          <span aria-hidden="true">✎</span>
        </button>
      </div>
    )
  }
  const errorId = `${record.id}-${column.name}-error`
  return (
    <div className="ftable__edit" onKeyDown={keys}>
      {kind === 'checkbox' ? (
        <input
          ref={input}
          type="checkbox"
          checked={draft === true}
          aria-label={t('table.editing', { column: label, row: record.index + 1 })}
          onChange={(event) => setDraft(event.currentTarget.checked)}
        />
      ) : (
        <input
          ref={input}
          type={kind === 'number' ? 'number' : kind === 'datetime-local' ? 'datetime-local' : 'text'}
          step={kind === 'number' ? 1 : undefined}
          value={String(draft)}
          aria-label={t('table.editing', { column: label, row: record.index + 1 })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setDraft(event.currentTarget.value)
            setError(null)
          }}
        />
      )}
      <button type="button" className="ftable__tool ftable__tool--ok" aria-label={t('table.confirm')} onClick={confirm}>
        <span aria-hidden="true">✓</span>
      </button>
      <button type="button" className="ftable__tool" aria-label={t('table.cancel')} onClick={close}>
        <span aria-hidden="true">✕</span>
      </button>
      {error && (
        <span className="ftable__error" id={errorId} role="alert">
          {error}
        </span>
      )}
    </div>
  )
}

export const DataRow = memo(function DataRow({
  record,
  context,
  childOpen,
  rowIndex,
  measure,
  virtualIndex,
}: {
  record: TableRecord
  context: RowContext
  childOpen: boolean
  /** aria-rowindex: 1-based among all rows the table has (the header row is 1). */
  rowIndex: number
  measure?: (node: HTMLTableRowElement | null) => void
  virtualIndex?: number
}) {
  const { t, columns, scripts, handlers, idPrefix } = context
  return (
    <tr data-row={record.index} aria-rowindex={rowIndex} ref={measure} data-index={virtualIndex}>
      {context.hasChild && (
        <td className="ftable__toggle-cell">
          <button
            type="button"
            className="ftable__tool"
            aria-expanded={childOpen}
            aria-controls={childOpen ? `${idPrefix}-child-${record.index}` : undefined}
            aria-label={t('table.details_toggle', { row: record.index + 1 })}
            onClick={() => handlers.toggleChild(record.id)}
          >
            <span aria-hidden="true">{childOpen ? '▾' : '▸'}</span>
          </button>
        </td>
      )}
      {columns.map((column) => {
        const shown = record.shown[column.name]!
        if (column.type === 'buttons') {
          return (
            <td key={column.name} data-type="buttons" className="ftable__buttons" style={cellStyle(column)}>
              {column.buttons.map((button, i) => (
                <TableButton
                  key={i}
                  button={button}
                  holds={conditionHolds(button, scripts?.buttons.get(buttonKey(column.name, i))?.[record.index])}
                  enabled={context.enabled}
                  onPress={() => handlers.press(button, record)}
                  describedBy={`${idPrefix}-why-${record.index}-${column.name}-${i}`}
                />
              ))}
            </td>
          )
        }
        const canEdit = context.editable && column.editable && column.type !== 'formule' && !column.formule.trim()
        return (
          <td
            key={column.name}
            data-type={column.type}
            data-column={column.name}
            data-invalid={shown.invalid || undefined}
            style={cellStyle(column, shown)}
          >
            {canEdit ? (
              <EditableCell
                column={column}
                record={record}
                shown={shown}
                t={t}
                onCommit={(value) => handlers.commit(record.index, column.name, value)}
              />
            ) : (
              <ShownValue shown={shown} />
            )}
          </td>
        )
      })}
    </tr>
  )
})

/** The markdown under an opened row: child_row with the row's cells put in its ${column} placeholders. */
export function ChildRow({
  html,
  text,
  span,
  id,
  rowIndex,
  measure,
  virtualIndex,
}: {
  html: string | undefined
  text: string
  span: number
  id: string
  rowIndex: number
  measure?: (node: HTMLTableRowElement | null) => void
  virtualIndex?: number
}) {
  return (
    <tr className="ftable__child" aria-rowindex={rowIndex} ref={measure} data-index={virtualIndex}>
      <td colSpan={span} id={id}>
        {html === undefined ? (
          <div className="media-markdown media-markdown--plain">{text}</div>
        ) : (
          // Safe: markdown-it with html:false, and every cell value markdown-escaped before it went in.
          <div className="media-markdown" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </td>
    </tr>
  )
}

export function GroupRow({
  label,
  count,
  expanded,
  onToggle,
  span,
  rowIndex,
  depth,
  measure,
  virtualIndex,
  t,
}: {
  label: string
  count: number
  expanded: boolean
  onToggle(): void
  span: number
  rowIndex: number
  depth: number
  measure?: (node: HTMLTableRowElement | null) => void
  virtualIndex?: number
  t: TFunction
}) {
  const shown = label === '' ? t('table.empty_group') : label
  return (
    <tr className="ftable__group" aria-rowindex={rowIndex} ref={measure} data-index={virtualIndex} data-group={label}>
      <th scope="rowgroup" colSpan={span} style={{ paddingLeft: `${0.6 + depth * 1.2}rem` }}>
        <button
          type="button"
          className="ftable__group-toggle"
          aria-expanded={expanded}
          aria-label={t('table.group_toggle', { value: shown })}
          onClick={onToggle}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          <span aria-hidden="true">{t('table.group', { value: shown, count })}</span>
        </button>
      </th>
    </tr>
  )
}

/** Keeps a value's latest version in a ref, for handlers that must stay the same function. */
export function useLatest<T>(value: T) {
  const ref = useRef(value)
  useEffect(() => {
    ref.current = value
  })
  return ref
}
