/**
 * date and time (spec 000 §3). Values are the contract's (types/datetime.ts): one ISO text
 * ('YYYY-MM-DD', 'YYYY-MM', 'YYYY', 'YYYY-MM-DDTHH:mm'; 'HH:mm' or 'HH:mm:ss'), a [from, to] range,
 * or a list when multiple. Native inputs do the picking (date, month, datetime-local, time with its
 * step); a range is two inputs, multiple adds and removes chips, inline shows an always-open panel.
 * Time uses selects instead when the 12-hour clock (useh) or a partial see {h, m, s} is asked for,
 * which a native time input cannot show.
 */
import './fields.css'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldProps } from '../../types.js'
import {
  addEntry,
  dateInputType,
  formatDateText,
  formatTime,
  from12h,
  parseTime,
  rangeValue,
  to12h,
  type DateType,
  type TimeParts,
} from './logic.js'
import { controlStyle, describedBy, domEvents, useDraft } from './shared.js'

type DatesValue = string | string[]

/** What one end (or the single value) is drawn with. */
interface EndProps {
  id?: string
  value: string
  label?: string
  readOnly: boolean
  disabled: boolean
  describedBy?: string
  onCommit(value: string): void
}

type EndInput = (props: EndProps) => ReactNode

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [])
const asSingle = (value: unknown): string => (typeof value === 'string' ? value : '')

/** The frame shared by date and time: single, range, multiple and inline. */
function DatesControl({
  props,
  range,
  multiple,
  inline,
  renderEnd,
  display,
}: {
  props: FieldProps<DatesValue>
  range: boolean
  multiple: boolean
  inline: boolean
  renderEnd: EndInput
  /** The value as words, for chips and the inline panel. */
  display(text: string): string
}) {
  const { t } = useTranslation()
  const { item, value, onChange, onEvent, readOnly, disabled, inputId } = props
  const described = describedBy(inputId, item)
  const events = domEvents(onEvent)
  const commit = (next: DatesValue) => {
    onChange(next)
    onEvent('on_change')
  }
  // A range keeps its half-typed end here until both ends are given (the contract accepts two or none).
  const {
    draft: ends,
    setDraft: setEnds,
    emit,
  } = useDraft<DatesValue, [string, string]>(value, commit, (v) => {
    const list = asList(v)
    return list.length === 2 ? [list[0]!, list[1]!] : ['', '']
  })
  const [pending, setPending] = useState('')

  let body: ReactNode
  if (range) {
    const setEnd = (index: 0 | 1, text: string) => {
      const next: [string, string] = index === 0 ? [text, ends[1]] : [ends[0], text]
      setEnds(next)
      const stored = rangeValue(next[0], next[1])
      // One end given over an empty range: nothing to store yet (and no scripts to run).
      if (stored.length > 0 || asList(value).length > 0) emit(stored)
    }
    body = (
      <div className="fdates__range">
        {renderEnd({
          id: inputId,
          value: ends[0],
          label: t('field_ui.from'),
          readOnly,
          disabled,
          describedBy: described,
          onCommit: (text) => setEnd(0, text),
        })}
        <span className="fdates__dash" aria-hidden="true">
          –
        </span>
        {renderEnd({
          value: ends[1],
          label: t('field_ui.to'),
          readOnly,
          disabled,
          onCommit: (text) => setEnd(1, text),
        })}
      </div>
    )
  } else if (multiple) {
    const list = asList(value)
    const editable = !readOnly && !disabled
    body = (
      <div className="fdates__multiple">
        {editable && (
          <div className="fdates__adder">
            {renderEnd({
              id: inputId,
              value: pending,
              label: t('field_ui.new_entry'),
              readOnly,
              disabled,
              describedBy: described,
              onCommit: setPending,
            })}
            <button
              type="button"
              className="button fdates__add"
              disabled={pending === '' || list.includes(pending)}
              onClick={() => {
                commit(addEntry(list, pending))
                setPending('')
              }}
            >
              {t('field_ui.add')}
            </button>
          </div>
        )}
        <ul
          className="fchips"
          aria-label={t('field_ui.chosen')}
          id={editable ? undefined : inputId}
          tabIndex={editable ? undefined : -1}
        >
          {list.map((entry) => (
            <li key={entry} className="fchip">
              <span>{display(entry)}</span>
              {editable && (
                <button
                  type="button"
                  className="fchip__remove"
                  aria-label={t('field_ui.remove', { label: display(entry) })}
                  onClick={() => commit(list.filter((x) => x !== entry))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
    )
  } else {
    body = renderEnd({
      id: inputId,
      value: asSingle(value),
      readOnly,
      disabled,
      describedBy: described,
      onCommit: commit,
    })
  }

  const words = Array.isArray(value) ? value.map(display).join(range ? ' – ' : ', ') : value ? display(value) : ''
  return (
    <div className={`fdates${inline ? ' fdates--inline' : ''}`} {...events}>
      {body}
      {inline && (
        <p className="fdates__words" aria-live="polite">
          {words}
        </p>
      )}
    </div>
  )
}

/** A year typed as four digits: kept as typed until it is a whole year. */
function YearInput({
  id,
  value,
  label,
  readOnly,
  disabled,
  describedBy: described,
  onCommit,
  style,
}: EndProps & { style: object }) {
  const [draft, setDraft] = useState(value)
  const [known, setKnown] = useState(value)
  if (known !== value) {
    setKnown(value)
    setDraft(value)
  }
  return (
    <input
      id={id}
      type="number"
      className="finput fdates__input"
      style={style}
      min={1000}
      max={9999}
      step={1}
      inputMode="numeric"
      value={draft}
      aria-label={label}
      aria-describedby={described}
      readOnly={readOnly}
      disabled={disabled}
      onChange={(event) => {
        const text = event.target.value
        setDraft(text)
        if (/^\d{4}$/.test(text) || text === '') {
          setKnown(text)
          onCommit(text)
        }
      }}
    />
  )
}

export function DateField(props: FieldProps<DatesValue>) {
  const { item, services } = props
  const dateType = (item.data.date_type ?? 'date') as DateType
  const style = controlStyle(item)
  const renderEnd: EndInput = (end) =>
    dateType === 'year' ? (
      <YearInput key={end.label ?? 'single'} {...end} style={style} />
    ) : (
      <input
        key={end.label ?? 'single'}
        id={end.id}
        type={dateInputType(dateType)}
        className="finput fdates__input"
        style={style}
        value={end.value}
        aria-label={end.label}
        aria-describedby={end.describedBy}
        readOnly={end.readOnly}
        disabled={end.disabled}
        onChange={(event) => end.onCommit(event.target.value)}
      />
    )
  return (
    <DatesControl
      props={props}
      range={item.data.range === true}
      multiple={item.data.multiple === true && item.data.range !== true}
      inline={item.data.inline === true}
      renderEnd={renderEnd}
      display={(text) => formatDateText(text, dateType, services.lang)}
    />
  )
}

interface TimeData {
  range?: boolean
  inline?: boolean
  see?: { h?: boolean; m?: boolean; s?: boolean }
  useh?: boolean
}

const two = (n: number) => String(n).padStart(2, '0')

/** Hour, minute and second selects (and a.m./p.m. for the 12-hour clock): the parts see {h, m, s} shows. */
function TimeSelects({
  end,
  see,
  useh,
  style,
}: {
  end: EndProps
  see: { h: boolean; m: boolean; s: boolean }
  useh: boolean
  style: object
}) {
  const { t } = useTranslation()
  const parts = parseTime(end.value)
  const base: TimeParts = parts ?? { h: 0, m: 0, s: 0 }
  const set = (next: Partial<TimeParts>) => end.onCommit(formatTime({ ...base, ...next }, see.s))
  const locked = end.readOnly || end.disabled
  const half = to12h(base.h)
  const numbers = (count: number, from = 0) => Array.from({ length: count }, (_, i) => i + from)
  const select = (
    label: string,
    current: string,
    options: { value: string; text: string }[],
    onPick: (v: string) => void,
    id?: string
  ) => (
    <select
      id={id}
      className="finput ftime__part"
      style={style}
      aria-label={label}
      value={current}
      disabled={locked}
      aria-describedby={id ? end.describedBy : undefined}
      onChange={(event) => onPick(event.target.value)}
    >
      <option value="">--</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.text}
        </option>
      ))}
    </select>
  )
  const hours = useh
    ? numbers(12, 1).map((h) => ({ value: String(h), text: two(h) }))
    : numbers(24).map((h) => ({ value: String(h), text: two(h) }))
  const sixty = numbers(60).map((n) => ({ value: String(n), text: two(n) }))
  const prefix = end.label ? `${end.label}: ` : ''
  return (
    <span className="ftime__parts" role="group" aria-label={end.label}>
      {see.h &&
        select(
          `${prefix}${t('field_ui.hour')}`,
          parts ? String(useh ? half.hour : parts.h) : '',
          hours,
          (v) => (v === '' ? end.onCommit('') : set({ h: useh ? from12h(Number(v), half.pm) : Number(v) })),
          end.id
        )}
      {see.m &&
        select(
          `${prefix}${t('field_ui.minute')}`,
          parts ? String(parts.m) : '',
          sixty,
          (v) => set({ m: Number(v || 0) }),
          see.h ? undefined : end.id
        )}
      {see.s &&
        select(`${prefix}${t('field_ui.second')}`, parts ? String(parts.s) : '', sixty, (v) =>
          set({ s: Number(v || 0) })
        )}
      {useh &&
        select(
          `${prefix}${t('field_ui.half_day')}`,
          parts ? (half.pm ? 'pm' : 'am') : '',
          [
            { value: 'am', text: t('field_ui.am') },
            { value: 'pm', text: t('field_ui.pm') },
          ],
          (v) => set({ h: from12h(half.hour, v === 'pm') })
        )}
    </span>
  )
}

export function TimeField(props: FieldProps<DatesValue>) {
  const { t } = useTranslation()
  const { item } = props
  const data = item.data as TimeData
  const see = { h: data.see?.h !== false, m: data.see?.m !== false, s: data.see?.s === true }
  const useh = data.useh === true
  const native = !useh && see.h && see.m
  const style = controlStyle(item)
  const renderEnd: EndInput = (end) =>
    native ? (
      <input
        key={end.label ?? 'single'}
        id={end.id}
        type="time"
        step={see.s ? 1 : 60}
        className="finput fdates__input"
        style={style}
        value={end.value}
        aria-label={end.label}
        aria-describedby={end.describedBy}
        readOnly={end.readOnly}
        disabled={end.disabled}
        onChange={(event) => end.onCommit(event.target.value)}
      />
    ) : (
      <TimeSelects key={end.label ?? 'single'} end={end} see={see} useh={useh} style={style} />
    )
  const display = (text: string) => {
    const parts = parseTime(text)
    if (!parts || !useh) return text
    const half = to12h(parts.h)
    return `${two(half.hour)}:${two(parts.m)}${see.s ? `:${two(parts.s)}` : ''} ${half.pm ? t('field_ui.pm') : t('field_ui.am')}`
  }
  return (
    <DatesControl
      props={props}
      range={data.range === true}
      multiple={false}
      inline={data.inline === true}
      renderEnd={renderEnd}
      display={display}
    />
  )
}
