/** What every editor of the panel needs besides its own value: the problems and the texts. */
import { createContext, useContext, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Texts } from './labels.js'
import type { ShownProblem } from './problems.js'
import type { FieldTypeRegistry } from '@tramita/contract'
import type { Language } from '@tramita/i18n'
import type { SharedValue } from './values.js'
import type { ScriptFormConfig } from '../scripts/index.js'

export interface PanelContextValue {
  problems: readonly ShownProblem[]
  /** Several items are selected: problems name their item. */
  multi: boolean
  /** The form as it is now: script editors check scripts against it (absent: plain text boxes). */
  scripts?: { form: ScriptFormConfig; registry: FieldTypeRegistry }
  /** The form's action names: a field's events offer them (absent: names are typed). */
  actionNames?: readonly string[]
  /** Texts are being given in `language`: translatable rows edit the selected items' translations. */
  translation?: Translation
  /** The types the items come from: an entry of a typed list (a group's cell) is described by its type. */
  registry?: FieldTypeRegistry
}

export interface Translation {
  language: Language
  /** The first selected item's data: list positions in a text's path become its entry's name. */
  data: unknown
  read(key: string): SharedValue
  /** Sets (or, with undefined, removes) the translation of the text named `key`. */
  write(key: string, text: string | undefined): void
}

export const PanelContext = createContext<PanelContextValue>({ problems: [], multi: false })

export const usePanel = () => useContext(PanelContext)

/** The page's texts as labels.ts reads them, plus `t` with values. */
export function useTexts(): Texts & { tv(id: string, values: Record<string, unknown>): string } {
  const { t, i18n } = useTranslation()
  return useMemo(
    () => ({
      exists: (id: string) => i18n.exists(id),
      t: (id: string) => t(id),
      tv: (id: string, values: Record<string, unknown>) => t(id, values),
    }),
    [t, i18n]
  )
}
