/**
 * celular (spec 000 §3): a country select (CO by default, §9) and the number; the value is the
 * contract's {code, value, string}, built by celularValue (digits only, string '+57 3001234567').
 */
import './fields.css'
import { useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { callingCode, celularValue, PHONE_COUNTRIES, PHONE_COUNTRY, type CelularValueShape } from '@tramita/contract'
import type { FieldProps } from '../../types.js'
import { controlStyle, describedBy, domEvents } from './shared.js'

/** Countries with their names in the page's language, by name. */
function useCountries(lang: string) {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null
    try {
      names = new Intl.DisplayNames([lang, 'es'], { type: 'region' })
    } catch {
      // An engine without region names shows the codes.
    }
    const collator = new Intl.Collator(lang)
    return PHONE_COUNTRIES.map((code) => ({ code, name: names?.of(code) ?? code, dial: callingCode(code) })).sort(
      (a, b) => collator.compare(a.name, b.name)
    )
  }, [lang])
}

export function CelularField(props: FieldProps<CelularValueShape | ''>) {
  const { t } = useTranslation()
  const { item, value, onChange, onEvent, readOnly, disabled, inputId, services } = props
  const countries = useCountries(services.lang)
  const fallback = typeof item.data.code === 'string' && item.data.code ? item.data.code : PHONE_COUNTRY
  const code = value && value.code ? value.code : fallback
  const number = value ? value.value : ''
  const atFocus = useRef<string | null>(null)
  const shown = value ? value.string : ''
  // on_change once on leaving the field (country and number together), when the phone changed.
  const events = domEvents(onEvent, {
    onFocus: () => {
      atFocus.current = shown
    },
    onBlur: () => {
      if (atFocus.current !== null && atFocus.current !== shown) onEvent('on_change')
      atFocus.current = null
    },
  })
  const style = controlStyle(item)

  return (
    <div className="fcelular" {...events}>
      <select
        className="finput fcelular__country"
        style={style}
        aria-label={t('field_ui.country')}
        value={code}
        disabled={disabled || readOnly}
        onChange={(event) => onChange(celularValue(event.target.value, number))}
      >
        {!countries.some((c) => c.code === code) && <option value={code}>{code}</option>}
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name} (+{country.dial})
          </option>
        ))}
      </select>
      <input
        id={inputId}
        className="finput fcelular__number"
        style={style}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        value={number}
        placeholder={String(item.data.ref.placeholder ?? '') || undefined}
        readOnly={readOnly}
        disabled={disabled}
        aria-describedby={describedBy(inputId, item)}
        // Committed per keystroke (digits only) so conditions react while typing.
        onChange={(event) => onChange(celularValue(code, event.target.value))}
      />
    </div>
  )
}
