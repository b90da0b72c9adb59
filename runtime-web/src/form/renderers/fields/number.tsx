/**
 * number and money (spec 000 §3, §5 "Number"): min and max (a negative bound is none) shown as
 * 'min:' and 'max:' (a typed number beyond one says so, in the designer's words when given), clamping and decimal truncation by the contract's normalizeNumberInput, money
 * becoming 0 when emptied, and money shown through Intl (formatMoney) while the field is not focused.
 * selector adds − and + steppers (and the arrow keys); selector_only leaves only them.
 *
 * Like text, the value is committed on every input (clamped and truncated, so the store never holds
 * an out-of-range number) while the typed text stays as typed until blur shows the committed value.
 */
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  allowedDecimals,
  customMessage,
  formatMoney,
  normalizeNumberInput,
  numberBounds,
  parseDecimal,
  toPlainDecimal,
} from '@tramita/contract'
import type { FieldProps } from '../../types.js'
import { controlStyle, describedBy, domEvents, Hint, useDraft } from './shared.js'

type NumberValue = number | ''

interface NumberData {
  limit?: { min?: number; max?: number }
  decimals?: { enabled?: boolean; significant?: number }
  money?: { enabled?: boolean }
  selector?: boolean
  selector_only?: boolean
}

const toText = (value: NumberValue): string =>
  typeof value === 'number' && Number.isFinite(value) ? toPlainDecimal(value) : ''

export function NumberField(props: FieldProps<NumberValue>) {
  const { t } = useTranslation()
  const { item, value, onChange, onEvent, readOnly, disabled, inputId } = props
  const data = item.data as NumberData
  const money = data.money?.enabled === true
  const options = { limit: data.limit, decimals: data.decimals, money }
  const { min, max } = numberBounds(data.limit)
  const { draft, setDraft, emit } = useDraft<NumberValue>(value, onChange, toText)
  const [focused, setFocused] = useState(false)
  const selector = data.selector === true || data.selector_only === true
  const typing = data.selector_only !== true && !readOnly
  const current = typeof value === 'number' ? value : ''

  const atFocus = useRef<NumberValue | null>(null)

  const commit = (next: NumberValue) => {
    setDraft(toText(next))
    if (!Object.is(next, current)) emit(next)
    return next
  }
  const step = (delta: number) => {
    if (readOnly || disabled) return
    const base = typeof current === 'number' ? current : (min ?? 0) - delta
    // Rounded to the kept decimals first so 1.15 + 1 cannot truncate to 2.14.
    const digits = allowedDecimals(data.decimals)
    const next = commit(normalizeNumberInput(Number((base + delta).toFixed(digits)), options))
    if (!Object.is(next, current)) onEvent('on_change')
  }

  const rangeId = `${inputId}-range`
  const errorId = `${inputId}-error`
  const hasRange = min !== null || max !== null
  // A typed number out of range is clamped when committed: meanwhile the field says why, in the
  // designer's words when the form gives them.
  const typed = parseDecimal(draft)
  const outOfRange =
    typed === null
      ? null
      : min !== null && typed < min
        ? (customMessage(item, 'min') ?? t('contract.errors.number_min', { min }))
        : max !== null && typed > max
          ? (customMessage(item, 'max') ?? t('contract.errors.number_max', { max }))
          : null
  const events = domEvents(onEvent, {
    onFocus: () => {
      setFocused(true)
      atFocus.current = current
    },
    onBlur: () => {
      setFocused(false)
      // Only a typed change normalises: tabbing through an untouched money field leaves it empty.
      const final = draft !== toText(current) ? commit(normalizeNumberInput(draft, options)) : commit(current)
      // on_change as the native change event: once on leaving, when the value differs from before focus.
      if (atFocus.current !== null && !Object.is(final, atFocus.current)) onEvent('on_change')
      atFocus.current = null
    },
  })
  // The config reaches the runtime with the type's defaults applied, so the item has the money keys.
  const moneyItem = item as Parameters<typeof formatMoney>[0]
  const shown = !focused && money ? (typeof current === 'number' ? formatMoney(moneyItem, current) : '') : draft

  return (
    <div className="fnumber">
      <div className="fnumber__row">
        {selector && (
          <button
            type="button"
            className="fnumber__step"
            aria-label={t('field_ui.decrease')}
            aria-controls={inputId}
            tabIndex={-1}
            disabled={readOnly || disabled || (min !== null && typeof current === 'number' && current <= min)}
            onClick={() => step(-1)}
          >
            −
          </button>
        )}
        <input
          id={inputId}
          className={`finput fnumber__input${money ? ' fnumber__input--money' : ''}`}
          style={controlStyle(item)}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={shown}
          placeholder={String(item.data.ref.placeholder ?? '') || undefined}
          readOnly={!typing}
          disabled={disabled}
          aria-describedby={describedBy(inputId, item, outOfRange !== null && errorId, hasRange && rangeId)}
          {...events}
          onChange={(event) => {
            setDraft(event.target.value)
            emit(normalizeNumberInput(event.target.value, options))
          }}
          onKeyDown={(event) => {
            if (selector && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
              event.preventDefault()
              step(event.key === 'ArrowUp' ? 1 : -1)
            }
            events.onKeyDown()
          }}
        />
        {selector && (
          <button
            type="button"
            className="fnumber__step"
            aria-label={t('field_ui.increase')}
            aria-controls={inputId}
            tabIndex={-1}
            disabled={readOnly || disabled || (max !== null && typeof current === 'number' && current >= max)}
            onClick={() => step(1)}
          >
            +
          </button>
        )}
      </div>
      {hasRange && (
        <div className="fhints">
          {outOfRange !== null && (
            <Hint id={errorId} tone="error" live>
              {outOfRange}
            </Hint>
          )}
          <Hint id={rangeId}>
            {min !== null && (
              <span className="fhint__bound">
                {t('field_ui.min')} {min}
              </span>
            )}
            {max !== null && (
              <span className="fhint__bound">
                {t('field_ui.max')} {max}
              </span>
            )}
          </Hint>
        </div>
      )}
    </div>
  )
}
