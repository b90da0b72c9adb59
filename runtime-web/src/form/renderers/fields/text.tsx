/**
 * text, textarea, email and tramita ({product}): one control with the text rules of the contract
 * (spec 000 §5 "Text"): ref.limit with a current/limit counter, a mask that replaces the limit and
 * formats as typed, a pattern ('info_invalida' when broken, the pattern as a hint when kept), a
 * minimum length, each broken rule told in the designer's words when the form gives them,
 * autocomplete suggestions and the password flag.
 *
 * Live conditions: the value is committed to the store on every input (so conditions and formulas
 * react per keystroke), and the spec's "an invalid value emits empty" is applied on blur: the store
 * then holds '' while the typed text stays visible with its message.
 */
import { useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  autocompleteSuggestions,
  checkText,
  compilePattern,
  customMessage,
  isEmail,
  shapeText,
  textMinLength,
  type TextRuleOptions,
} from '@tramita/contract'
import type { FieldProps } from '../../types.js'
import { asText, controlStyle, describedBy, domEvents, Hint, useDraft } from './shared.js'
import { SuggestionList, useCombobox } from './Suggestions.js'

type Variant = 'text' | 'textarea' | 'email' | 'tramita'

function TextControl({ variant, ...props }: FieldProps<string> & { variant: Variant }) {
  const { t } = useTranslation()
  const { item, onChange, onEvent, readOnly, disabled, inputId } = props
  const ref = item.data.ref
  // tramita is a case code: the contract gives it no limit, mask or pattern.
  const rules: TextRuleOptions =
    variant === 'tramita'
      ? {}
      : {
          limit: Number(ref.limit),
          mask: String(ref.mask ?? ''),
          pattern: String(ref.pattern ?? ''),
          // The text types' own ref key (the common FormItem does not name it).
          minLength: Number((ref as { min_length?: unknown }).min_length ?? 0),
        }
  const { draft, setDraft, emit } = useDraft<string>(props.value, onChange, asText)
  const [revealed, setRevealed] = useState(false)
  const atFocus = useRef<string | null>(null)

  const check = checkText(draft, rules)
  const emailBroken = variant === 'email' && draft !== '' && !isEmail(draft)
  const invalid = !check.valid || emailBroken
  // The designer's words for the rule broken (the item is in the reader's language), else the product's.
  const errorText =
    check.message === 'info_invalida'
      ? (customMessage(item, 'pattern') ?? t('info_invalida'))
      : check.message === 'min_length'
        ? (customMessage(item, 'min_length') ?? t('contract.errors.text_min', { min: textMinLength(rules) }))
        : (customMessage(item, 'email') ?? t('field_ui.email_invalid'))
  const pattern = variant === 'tramita' ? null : compilePattern(rules.pattern)
  const password = variant === 'text' && item.data.password === true
  // An autocomplete rule's looked-up list (a setOptions on the field) replaces the designed one; only
  // its texts count (a set_options meant for a choice field may hold objects).
  const offered = Array.isArray(props.options)
    ? (props.options as unknown[]).filter((o): o is string => typeof o === 'string')
    : item.data.autocomplete
  const list: string[] = variant === 'text' && !password && Array.isArray(offered) ? offered : []
  const suggestions = list.length > 0 && !readOnly && !disabled ? autocompleteSuggestions(draft, list) : []

  const type = (text: string) => {
    const shaped = shapeText(text, rules)
    setDraft(shaped)
    emit(shaped)
  }
  const listId = `${inputId}-suggestions`
  const combobox = useCombobox(listId, suggestions.length, (index) => type(suggestions[index]!))

  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`
  const counterId = `${inputId}-counter`
  const events = domEvents(onEvent, {
    onFocus: () => {
      atFocus.current = asText(props.value)
    },
    onBlur: () => {
      combobox.hide()
      const final = emailBroken ? '' : check.emitted
      if (final !== asText(props.value)) emit(final)
      // on_change follows the native change event: once, when the committed text differs from before focus.
      if (atFocus.current !== null && final !== atFocus.current) onEvent('on_change')
      atFocus.current = null
    },
  })
  const common = {
    id: inputId,
    className: `finput${invalid ? ' finput--invalid' : ''}`,
    style: controlStyle(item),
    value: draft,
    placeholder: String(ref.placeholder ?? '') || undefined,
    readOnly,
    disabled,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy(
      inputId,
      item,
      invalid && errorId,
      !invalid && pattern && hintId,
      check.counter !== null && counterId
    ),
    ...events,
  }
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (suggestions.length > 0) combobox.onKeyDown(event)
    events.onKeyDown()
  }

  return (
    <div className={`ftext ftext--${variant}`}>
      <div className="ftext__row">
        {variant === 'textarea' ? (
          <textarea
            {...common}
            rows={Number(item.data.rows) || 4}
            onChange={(event) => type(event.target.value)}
            onKeyDown={onKeyDown}
          />
        ) : (
          <input
            {...common}
            {...(list.length > 0 ? combobox.inputProps : {})}
            type={password && !revealed ? 'password' : variant === 'email' ? 'email' : 'text'}
            inputMode={variant === 'email' ? 'email' : undefined}
            autoComplete={password ? 'new-password' : list.length > 0 ? 'off' : undefined}
            onChange={(event) => {
              type(event.target.value)
              combobox.show()
            }}
            onKeyDown={onKeyDown}
          />
        )}
        {password && (
          <button
            type="button"
            className="ftext__eye"
            aria-pressed={revealed}
            aria-controls={inputId}
            disabled={disabled}
            onClick={() => setRevealed((on) => !on)}
          >
            {revealed ? t('field_ui.hide_password') : t('field_ui.show_password')}
          </button>
        )}
      </div>
      {list.length > 0 && (
        <SuggestionList
          id={listId}
          label={t('field_ui.suggestions')}
          items={suggestions.map((entry) => ({ key: entry, label: entry }))}
          combobox={combobox}
          onPick={(index) => {
            type(suggestions[index]!)
            combobox.hide()
          }}
        />
      )}
      <div className="fhints">
        {invalid ? (
          <Hint id={errorId} tone="error" live>
            {errorText}
          </Hint>
        ) : (
          pattern && <Hint id={hintId}>{t('field_ui.pattern_hint', { pattern: rules.pattern })}</Hint>
        )}
        {check.counter !== null && (
          <Hint id={counterId}>
            <span className="fhint__counter">{check.counter}</span>
          </Hint>
        )}
      </div>
    </div>
  )
}

export const TextField = (props: FieldProps<string>) => <TextControl {...props} variant="text" />
export const TextareaField = (props: FieldProps<string>) => <TextControl {...props} variant="textarea" />
export const EmailField = (props: FieldProps<string>) => <TextControl {...props} variant="email" />
export const TramitaField = (props: FieldProps<string>) => <TextControl {...props} variant="tramita" />
