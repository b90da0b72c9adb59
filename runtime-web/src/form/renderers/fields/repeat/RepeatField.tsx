/**
 * The `repeat` field (a repeating group, the contract's types/repeat.ts): one card per row, each with
 * its caption, its cells drawn by their own types' renderers and a remove button while there are more
 * rows than min_rows; an add button while there are fewer than max_rows. A cell with a condition shows
 * in a row once that row's condition held (the store runs them per row). Value: the list of rows.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  canAddRow,
  canRemoveRow,
  cellKey,
  cellValue,
  emptyRow,
  repeatCells,
  rowCaption,
  type FormItem,
  type RepeatCell,
  type RepeatItem,
  type RepeatRow,
} from '@tramita/contract'
import { useForm } from '../../../context.js'
import type { FieldProps } from '../../../types.js'
import './repeat.css'

const NO_EVENTS = () => undefined

const rowsOf = (value: unknown): RepeatRow[] => (Array.isArray(value) ? (value as RepeatRow[]) : [])

export function RepeatField(props: FieldProps) {
  const { item, value, onChange, readOnly, disabled, inputId, device, services, nested } = props
  const { t } = useTranslation()
  const { store } = useForm()
  const group = item as unknown as RepeatItem
  const rows = rowsOf(value)
  const lang = services.lang
  // After an add the new row's first control takes the focus; after a remove, the add button or the group.
  const [focus, setFocus] = useState<{ row: number } | 'after-remove' | null>(null)
  const frame = useRef<HTMLDivElement>(null)
  const addButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focus === null) return
    setFocus(null)
    if (focus === 'after-remove') (addButton.current ?? frame.current)?.focus()
    else
      frame.current
        ?.querySelector<HTMLElement>(`[data-row="${focus.row}"] .frepeat__cells :is(input,select,textarea,button)`)
        ?.focus()
  }, [focus])

  const editable = !readOnly && !disabled
  // Each change starts from the rows the store holds now, not from this render's.
  const current = () => rowsOf(store.value(item.field_name))
  const setCell = (index: number, cell: string, next: unknown) =>
    onChange(current().map((row, i) => (i === index ? { ...row, [cell]: next } : row)))
  const add = () => {
    const now = current()
    if (!canAddRow(group, now.length)) return
    onChange([...now, emptyRow(group)])
    setFocus({ row: now.length })
  }
  const remove = (index: number) => {
    const now = current()
    if (!canRemoveRow(group, now.length)) return
    onChange(now.filter((_, i) => i !== index))
    setFocus('after-remove')
  }

  return (
    <div
      className="frepeat"
      id={inputId}
      ref={frame}
      tabIndex={-1}
      role="group"
      aria-label={item.data.label.value || item.field_name}
      data-rows={rows.length}
    >
      {rows.map((row, index) => {
        const caption = rowCaption(group, index, { lang })
        const captionId = `${inputId}-row-${index}`
        return (
          <div key={index} role="group" className="frepeat__row" data-row={index} aria-labelledby={captionId}>
            <div className="frepeat__head">
              <span className="frepeat__caption" id={captionId}>
                {caption}
              </span>
              {editable && canRemoveRow(group, rows.length) && (
                <button
                  type="button"
                  className="button button--ghost frepeat__remove"
                  aria-label={t('form_runtime.repeat.remove', { row: caption })}
                  onClick={() => remove(index)}
                >
                  {t('form_runtime.repeat.remove_short')}
                </button>
              )}
            </div>
            <div className="frepeat__cells">
              {repeatCells(item).map((cell) => (
                <CellView
                  key={cell.field_name}
                  cell={cell}
                  cellId={cellKey(item.field_name, index, cell.field_name)}
                  inputId={`${inputId}.${index}.${cell.field_name}`}
                  value={cellValue(cell, row)}
                  onChange={(next) => setCell(index, cell.field_name, next)}
                  readOnly={readOnly}
                  disabled={disabled}
                  device={device}
                  services={services}
                  nested={nested}
                />
              ))}
            </div>
          </div>
        )
      })}
      {editable && canAddRow(group, rows.length) && (
        <button type="button" ref={addButton} className="button frepeat__add" onClick={add}>
          {item.data.add_text || t('form_runtime.repeat.add')}
        </button>
      )}
    </div>
  )
}

interface CellProps extends Pick<FieldProps, 'readOnly' | 'disabled' | 'device' | 'services' | 'nested'> {
  cell: RepeatCell
  /** The cell's cellKey (its condition's key). */
  cellId: string
  /** Its control's id: the form's id of the cellKey (`ff-group.row.cell`), which the missing list focuses. */
  inputId: string
  value: unknown
  onChange(value: unknown): void
}

/** One cell of one row, drawn as the form draws a field (`nested`): its frame and its type's renderer. */
function CellView(props: CellProps) {
  const { cell, cellId, inputId, value, onChange, readOnly, disabled, device, services, nested: Framed } = props
  const { store } = useForm()
  if (!Framed || !store.isCellShown(cellId, cell)) return null
  const natural = (cell.state as { natural?: string } | undefined)?.natural
  // A computed cell is shown, never typed in.
  const locked = readOnly || natural === 'readonly' || String(cell.data.formule ?? '').trim() !== ''
  const off = disabled || natural === 'disabled'
  return (
    <div className="frepeat__cell" data-cell={cell.field_name}>
      <Framed
        item={cell as unknown as FormItem}
        value={value}
        onChange={onChange}
        onEvent={NO_EVENTS}
        readOnly={locked}
        disabled={off}
        required={cell.data.validate?.required === true && !locked && !off}
        inputId={inputId}
        device={device}
        services={services}
      />
    </div>
  )
}
