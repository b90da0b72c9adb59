/**
 * A text with ${field} placeholders filled with the fields' display texts (value_replace, from the
 * contract's stored-value rule of each type) or the process variables. It re-renders when a field
 * it names changes, and only then: one store.subscribeField per placeholder.
 */
import { useCallback, useContext, useMemo, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { fillPlaceholders, placeholderNames } from '@tramita/contract'
import { FormContext } from '../../../context.js'
import type { FormStore } from '../../../store.js'

/** The display text of a field (or a process variable); undefined for a name the form does not know. */
export function displayText(store: FormStore, name: string, lang: string): string | undefined {
  const entry = store.item(name)
  if (entry?.kind === 'field') {
    const value = store.value(name)
    const fieldType = store.registry.get('field', entry.item.type)
    try {
      if (fieldType) return fieldType.stored(entry.item, value, { lang }).value_replace
    } catch {
      // A value of the wrong shape (mid-edit, or set by a script): show what it is rather than fail.
    }
    return value === undefined || value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  }
  if (Object.hasOwn(store.vars, name)) {
    const value = store.vars[name]
    return value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  }
  return undefined
}

const noStore = () => () => {}

/** `template` filled from the form; `escape` transforms each inserted text (markdown escaping). */
export function useFilledText(template: string, escape?: (text: string) => string, store?: FormStore): string {
  const context = useContext(FormContext)
  const form = store ?? context?.store
  const { i18n } = useTranslation()
  const names = useMemo(() => placeholderNames(template), [template])
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!form) return noStore()
      const stops = names.map((name) => form.subscribeField(name, listener))
      return () => stops.forEach((stop) => stop())
    },
    [form, names]
  )
  // A string snapshot compares by value, so an unrelated tick of a named field does not re-render.
  const snapshot = () =>
    form
      ? fillPlaceholders(template, (name) => {
          const text = displayText(form, name, i18n.language)
          return text === undefined ? undefined : escape ? escape(text) : text
        })
      : template
  return useSyncExternalStore(subscribe, snapshot)
}
