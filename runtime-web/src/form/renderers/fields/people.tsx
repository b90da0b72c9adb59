/**
 * users, areas, roles and machines pickers (spec 000 §3, §6). Options come from the page
 * (services.peopleOptions, loaded once per kind) and are narrowed by the contract's reduce rule;
 * the user searches by the attribute ref.selector names (the label by default) and picks one or,
 * with multiple, several. The value is the list of picked options in the contract's people shape.
 */
import './fields.css'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { reduceById, reduceUsers, type ReduceLists } from '@tramita/contract'
import type { FieldProps, PeopleOption } from '../../types.js'
import { peopleIdOf, peopleLabelOf, peopleValueOf, type PeopleKind } from './logic.js'
import { controlStyle, describedBy, domEvents } from './shared.js'
import { SuggestionList, useCombobox } from './Suggestions.js'
import { StoredImage } from '../../StoredFile.js'
import { roleLabel } from '../../../lib/roles.js'

type Picked = Record<string, unknown>

/** How many matches the list shows at once; typing narrows the rest. */
const MAX_SHOWN = 50

function narrow(kind: PeopleKind, options: PeopleOption[], reduce: ReduceLists | undefined): PeopleOption[] {
  if (kind === 'users') return reduceUsers(options, reduce)
  if (kind === 'areas') return reduceById(options, reduce?.areas, (o) => o.code)
  if (kind === 'roles') return reduceById(options, reduce?.roles, (o) => o.code)
  return options
}

export function PeopleField(props: FieldProps<Picked[]>) {
  const { t } = useTranslation()
  const { item, value, onChange, onEvent, readOnly, disabled, inputId, services } = props
  const kind = item.type as PeopleKind
  const [options, setOptions] = useState<PeopleOption[] | null>(null)
  const [query, setQuery] = useState('')

  useEffect(() => {
    let live = true
    services
      .peopleOptions(kind)
      .then((list) => live && setOptions(list))
      // A failed lookup offers nothing; the page's call layer has already shown the error.
      .catch(() => live && setOptions([]))
    return () => {
      live = false
    }
  }, [services, kind])

  const reduce = item.data.reduce as ReduceLists | undefined
  const offered = useMemo(() => (options ? narrow(kind, options, reduce) : []), [options, kind, reduce])
  const multiple = item.data.multiple === true
  const chosen: Picked[] = Array.isArray(value) ? value : []
  const chosenIds = new Set(chosen.map((entry) => peopleIdOf(kind, entry)))
  const selector = (item.data.ref as { selector?: unknown }).selector
  const attribute = typeof selector === 'string' && selector ? selector : 'label'
  // The spec's four roles read in the page's language; what is stored keeps their names.
  const shown = (text: string) => (kind === 'roles' ? roleLabel(t, text) : text)
  const textOf = (option: PeopleOption) => shown(String(option[attribute] ?? option.label ?? ''))
  const needle = query.trim().toLowerCase()
  const matches = offered
    .filter((option) => !chosenIds.has(peopleIdOf(kind, peopleValueOf(kind, option))))
    .filter((option) => needle === '' || textOf(option).toLowerCase().includes(needle))
    .slice(0, MAX_SHOWN)
  const editable = !readOnly && !disabled

  const commit = (next: Picked[]) => {
    onChange(next)
    onEvent('on_change')
  }
  const pick = (index: number) => {
    const option = matches[index]
    if (!option || !editable) return
    const entry = peopleValueOf(kind, option)
    commit(multiple ? [...chosen, entry] : [entry])
    setQuery('')
    if (!multiple) combobox.hide()
  }
  const listId = `${inputId}-options`
  const combobox = useCombobox(listId, matches.length, pick)
  const statusId = `${inputId}-status`
  const events = domEvents(onEvent, { onBlur: () => combobox.hide() })

  return (
    <div className="fpeople" {...events}>
      {chosen.length > 0 && (
        <ul
          className="fchips"
          aria-label={t('field_ui.chosen')}
          id={editable ? undefined : inputId}
          tabIndex={editable ? undefined : -1}
          data-testid="people-chosen"
        >
          {chosen.map((entry) => {
            const id = peopleIdOf(kind, entry)
            const label = shown(peopleLabelOf(kind, entry))
            return (
              <li
                key={id}
                className="fchip"
                data-id={id}
                style={typeof entry.color === 'string' ? { borderColor: entry.color } : undefined}
              >
                {typeof entry.photo === 'string' && entry.photo && (
                  <StoredImage className="fchip__photo" services={services} path={entry.photo} />
                )}
                <span>{label}</span>
                {editable && (
                  <button
                    type="button"
                    className="fchip__remove"
                    aria-label={t('field_ui.remove', { label })}
                    onClick={() => commit(chosen.filter((x) => peopleIdOf(kind, x) !== id))}
                  >
                    ×
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {editable && (
        <input
          id={inputId}
          className="finput fpeople__search"
          style={controlStyle(item)}
          type="text"
          autoComplete="off"
          value={query}
          placeholder={String(item.data.ref.placeholder ?? '') || t('field_ui.search')}
          aria-describedby={describedBy(inputId, item, options === null && statusId)}
          {...combobox.inputProps}
          onChange={(event) => {
            setQuery(event.target.value)
            combobox.show()
          }}
          onFocus={(event) => {
            combobox.show()
            events.onFocus(event)
          }}
          onClick={(event) => {
            combobox.show()
            events.onClick(event)
          }}
          onKeyDown={(event) => {
            combobox.onKeyDown(event)
            events.onKeyDown()
          }}
        />
      )}
      {chosen.length === 0 && !editable && (
        <span className="fhint fhint--muted" id={inputId} tabIndex={-1}>
          —
        </span>
      )}
      <SuggestionList
        id={listId}
        label={String(item.data.label.value ?? '') || t('field_ui.search')}
        items={matches.map((option) => ({
          key: peopleIdOf(kind, peopleValueOf(kind, option)),
          label: (
            <span className="fpeople__option">
              {typeof option.color === 'string' && option.color && (
                <span className="fpeople__swatch" style={{ background: option.color }} aria-hidden="true" />
              )}
              {textOf(option)}
            </span>
          ),
        }))}
        combobox={combobox}
        onPick={pick}
      />
      {options === null && (
        <span className="fhint fhint--muted" id={statusId} aria-live="polite">
          {t('field_ui.loading')}
        </span>
      )}
      {options !== null && needle !== '' && matches.length === 0 && editable && (
        <span className="fhint fhint--muted" aria-live="polite">
          {t('field_ui.no_matches')}
        </span>
      )}
    </div>
  )
}
