/** What every editor of the panel needs besides its own value: the problems and the texts. */
import { createContext, useContext, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Texts } from './labels.js'
import type { ShownProblem } from './problems.js'
import type { FieldTypeRegistry } from '@tramita/contract'
import type { ScriptFormConfig } from '../scripts/index.js'

export interface PanelContextValue {
  problems: readonly ShownProblem[]
  /** Several items are selected: problems name their item. */
  multi: boolean
  /** The form as it is now: script editors check scripts against it (absent: plain text boxes). */
  scripts?: { form: ScriptFormConfig; registry: FieldTypeRegistry }
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
