/**
 * select, list and radios (spec 000 §3): options {id, label, bgcolor, txcolor}, drawn as a dropdown or
 * a list (mode), one or several (multiple), shuffled once per mount (order_random) or sorted by label
 * (order, asc), with a placeholder. The value is what the contract stores: an option id ('' for none),
 * or a list of ids when multiple. return_id only changes what scripts receive, so it is not read here.
 * Options replaced by a set_options effect arrive in props.options and take the designer's place.
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { textColorFor } from '@tramita/contract'
import type { FieldProps } from '../../types.js'
import {
  normalizeOptions,
  orderOptions,
  sameId,
  selectedIds,
  toggleId,
  type ChoiceOption,
  type OptionId,
} from './options.js'
import { controlStyle, describedBy, domEvents } from './shared.js'

type ChoiceValue = OptionId | OptionId[] | ''

interface ChoiceData {
  options?: unknown
  multiple?: boolean
  mode?: 'list' | 'dropdown'
  order_random?: boolean
  order?: boolean
  asc?: boolean
  placeholder?: string
}

/** An option's colours: its text colour, or black or white by the background's luminance (spec 000 §9). */
export function optionColors(option: ChoiceOption): CSSProperties | undefined {
  if (option.bgcolor) return { background: option.bgcolor, color: option.txcolor || textColorFor(option.bgcolor) }
  return option.txcolor ? { color: option.txcolor } : undefined
}

export function ChoiceField(props: FieldProps<ChoiceValue>) {
  const { t } = useTranslation()
  const { item, value, onChange, onEvent, readOnly, disabled, inputId, services } = props
  const data = item.data as ChoiceData
  const [seed] = useState(() => Math.random())
  const source = props.options ?? data.options
  const { order_random, order, asc } = data
  const options = useMemo(
    () => orderOptions(normalizeOptions(source), { order_random, order, asc }, seed, services.lang),
    [source, order_random, order, asc, seed, services.lang]
  )
  const multiple = data.multiple === true
  const chosen = selectedIds(value)
  const isChosen = (option: ChoiceOption) => chosen.some((id) => sameId(id, option.id))
  const placeholder = data.placeholder || String(item.data.ref.placeholder ?? '')
  const events = domEvents(onEvent)

  const choose = (next: ChoiceValue) => {
    if (readOnly || disabled) return
    onChange(next)
    // A choice is complete at once: on_change fires with it.
    onEvent('on_change')
  }
  const pick = (option: ChoiceOption) => choose(multiple ? toggleId(chosen, option.id) : option.id)

  if (data.mode === 'dropdown' && !multiple) {
    const index = options.findIndex(isChosen)
    const current = options[index]
    if (readOnly) {
      return (
        <input
          id={inputId}
          className="finput"
          style={{ ...controlStyle(item), ...(current ? optionColors(current) : undefined) }}
          readOnly
          value={current?.label ?? (chosen.length > 0 ? String(chosen[0]) : '')}
          aria-describedby={describedBy(inputId, item)}
          {...events}
        />
      )
    }
    return (
      <select
        id={inputId}
        className="finput fselect"
        style={{ ...controlStyle(item), ...(current ? optionColors(current) : undefined) }}
        value={index >= 0 ? String(index) : ''}
        disabled={disabled}
        aria-describedby={describedBy(inputId, item)}
        {...events}
        onChange={(event) => {
          const picked = options[Number(event.target.value)]
          choose(event.target.value === '' || !picked ? '' : picked.id)
        }}
      >
        <option value="">{placeholder || t('field_ui.choose')}</option>
        {options.map((option, i) => (
          <option key={String(option.id)} value={String(i)} style={optionColors(option)}>
            {option.label}
          </option>
        ))}
      </select>
    )
  }

  const list = (
    <OptionList
      {...props}
      options={options}
      multiple={multiple}
      isChosen={isChosen}
      onPick={pick}
      // The dropdown's panel is labelled by its button; the list mode's group carries the field's id.
      groupId={data.mode === 'dropdown' ? `${inputId}-panel` : inputId}
    />
  )
  if (data.mode !== 'dropdown') {
    return (
      <div className={`fchoice fchoice--${item.type}`} {...events}>
        {list}
      </div>
    )
  }
  const labels = options.filter(isChosen).map((o) => o.label)
  return (
    <MultiDropdown
      inputId={inputId}
      summary={labels.length > 0 ? labels.join(', ') : placeholder || t('field_ui.choose')}
      empty={labels.length === 0}
      disabled={disabled}
      style={controlStyle(item)}
      describedBy={describedBy(inputId, item)}
      events={events}
    >
      {list}
    </MultiDropdown>
  )
}

function OptionList({
  item,
  inputId,
  groupId,
  readOnly,
  disabled,
  options,
  multiple,
  isChosen,
  onPick,
}: FieldProps<ChoiceValue> & {
  groupId: string
  options: ChoiceOption[]
  multiple: boolean
  isChosen(option: ChoiceOption): boolean
  onPick(option: ChoiceOption): void
}) {
  const label = String(item.data.label.value ?? '')
  return (
    <div
      id={groupId}
      className="fchoice__list"
      role={multiple ? 'group' : 'radiogroup'}
      aria-label={label || undefined}
      aria-readonly={!multiple && readOnly ? true : undefined}
      aria-describedby={describedBy(inputId, item)}
    >
      {options.map((option) => {
        const on = isChosen(option)
        return (
          <label
            key={String(option.id)}
            className={`fchoice__option${on ? ' fchoice__option--on' : ''}${option.bgcolor ? ' fchoice__option--colored' : ''}`}
            style={optionColors(option)}
          >
            <input
              type={multiple ? 'checkbox' : 'radio'}
              name={groupId}
              checked={on}
              disabled={disabled}
              aria-readonly={multiple && readOnly ? true : undefined}
              onChange={() => onPick(option)}
            />
            <span>{option.label}</span>
          </label>
        )
      })}
    </div>
  )
}

/** A dropdown of several choices: a button showing the chosen labels opens the checkbox list. */
function MultiDropdown({
  inputId,
  summary,
  empty,
  disabled,
  style,
  describedBy: described,
  events,
  children,
}: {
  inputId: string
  summary: string
  empty: boolean
  disabled: boolean
  style: CSSProperties
  describedBy: string | undefined
  events: ReturnType<typeof domEvents>
  children: ReactNode
}) {
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [open])
  return (
    <div
      className="fchoice fchoice--dropdown"
      ref={box}
      {...events}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false)
        events.onBlur(event)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false)
          document.getElementById(inputId)?.focus()
        }
        events.onKeyDown()
      }}
    >
      <button
        type="button"
        id={inputId}
        className={`finput fchoice__button${empty ? ' fchoice__button--empty' : ''}`}
        style={style}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={`${inputId}-panel`}
        aria-describedby={described}
        disabled={disabled}
        onClick={() => setOpen((on) => !on)}
      >
        {summary}
      </button>
      {open && <div className="fchoice__panel">{children}</div>}
    </div>
  )
}
