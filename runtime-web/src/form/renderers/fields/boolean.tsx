/**
 * checkbox, switch and radio (spec 000 §3): a boolean each. The frame draws no label for these, so
 * each draws the field's label beside its control (a <label> pointing at it). The switch shows its
 * options' texts (true = YES, false = NO by default) and sits left or right of the label (position).
 * Radios sharing a family exclude each other: checking one clears the others of its family.
 * A radio reads the form's context (useForm) for the other radios of its family.
 */
import type { ReactNode } from 'react'
import type { FormItem } from '@tramita/contract'
import { useForm } from '../../context.js'
import { LabelContent } from '../../FieldShell.js'
import type { FieldProps } from '../../types.js'
import { describedBy, domEvents } from './shared.js'

/** The field's label beside its control (the frame draws none for these types). */
function LabelText({ item, inputId, required }: { item: FormItem; inputId: string; required: boolean }) {
  const color = item.data.design.colors.label || undefined
  return (
    <label className="fbool__label" htmlFor={inputId} style={{ color }}>
      <LabelContent item={item} required={required} />
    </label>
  )
}

function Row({
  item,
  className,
  events,
  children,
}: {
  item: FormItem
  className: string
  events: object
  children: ReactNode
}) {
  return (
    <div className={`fbool ${className}`} style={{ minHeight: Number(item.data.height) || undefined }} {...events}>
      {children}
    </div>
  )
}

export function CheckboxField({
  item,
  value,
  onChange,
  onEvent,
  readOnly,
  disabled,
  required,
  inputId,
}: FieldProps<boolean>) {
  const events = domEvents(onEvent)
  return (
    <Row item={item} className="fbool--checkbox" events={events}>
      <input
        id={inputId}
        type="checkbox"
        className="fbool__box"
        checked={value === true}
        disabled={disabled}
        aria-readonly={readOnly || undefined}
        aria-describedby={describedBy(inputId, item)}
        onChange={() => {
          if (readOnly) return
          onChange(value !== true)
          onEvent('on_change')
        }}
      />
      <LabelText item={item} inputId={inputId} required={required} />
    </Row>
  )
}

export function SwitchField({
  item,
  value,
  onChange,
  onEvent,
  readOnly,
  disabled,
  required,
  inputId,
}: FieldProps<boolean>) {
  const events = domEvents(onEvent)
  const texts = (item.data.options ?? {}) as { true?: string; false?: string }
  const on = value === true
  const right = item.data.position === 'right'
  const control = (
    <span className="fswitch">
      <input
        id={inputId}
        type="checkbox"
        role="switch"
        className="fswitch__input"
        checked={on}
        disabled={disabled}
        aria-readonly={readOnly || undefined}
        aria-describedby={describedBy(inputId, item, `${inputId}-state`)}
        onChange={() => {
          if (readOnly) return
          onChange(!on)
          onEvent('on_change')
        }}
      />
      <span className="fswitch__state" id={`${inputId}-state`} aria-hidden="true">
        {on ? (texts.true ?? 'YES') : (texts.false ?? 'NO')}
      </span>
    </span>
  )
  return (
    <Row item={item} className={`fbool--switch${right ? ' fbool--switch-right' : ''}`} events={events}>
      {right ? (
        <>
          <LabelText item={item} inputId={inputId} required={required} />
          {control}
        </>
      ) : (
        <>
          {control}
          <LabelText item={item} inputId={inputId} required={required} />
        </>
      )}
    </Row>
  )
}

export function RadioField({
  item,
  value,
  onChange,
  onEvent,
  readOnly,
  disabled,
  required,
  inputId,
}: FieldProps<boolean>) {
  const { store } = useForm()
  const events = domEvents(onEvent)
  const family = typeof item.data.family === 'string' ? item.data.family : ''
  const on = value === true
  const set = (next: boolean) => {
    if (readOnly || disabled) return
    if (next && family) {
      for (const other of store.config.fields) {
        if (other.type === 'radio' && other.field_name !== item.field_name && other.data.family === family) {
          store.setValue(other.field_name, false)
        }
      }
    }
    onChange(next)
    onEvent('on_change')
  }
  return (
    <Row item={item} className="fbool--radio" events={events}>
      <input
        id={inputId}
        type="radio"
        className="fbool__box"
        // Radios of one family share a name, so the arrow keys move between them as in any radio group.
        name={family ? `fradio-family-${family}` : inputId}
        checked={on}
        disabled={disabled}
        aria-readonly={readOnly || undefined}
        aria-describedby={describedBy(inputId, item)}
        onChange={(event) => {
          if (event.target.checked && !on) set(true)
        }}
        // A checked radio clicked again is cleared: otherwise a lone radio could never be unset.
        onClick={() => {
          if (on) set(false)
        }}
      />
      <LabelText item={item} inputId={inputId} required={required} />
    </Row>
  )
}
