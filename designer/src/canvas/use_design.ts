/**
 * The document being designed, through the model only: its history (every change a command, undo and
 * redo), the selection (names; shift or ctrl adds and removes) and the page shown. A command the model
 * refuses (a bad name, a place that is gone) changes nothing and is reported.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import {
  apply,
  canRedo,
  canUndo,
  createHistory,
  findItem,
  redo,
  undo,
  type Command,
  type DesignDocument,
  type History,
} from '../model/index.js'
import type { Language } from '@tramita/i18n'

export interface Design {
  doc: DesignDocument
  history: History
  /** Runs a command; false when the model refused it (nothing changed). */
  run(command: Command, merge?: string): boolean
  undo(): void
  redo(): void
  canUndo: boolean
  canRedo: boolean
  /** The selected names that are in the document, in the order they were selected. */
  selection: string[]
  select(name: string, add: boolean): void
  setSelection(names: string[]): void
  page: number
  setPage(page: number): void
  /** The shown page's settings are in the side panel (until an item is selected). */
  pageSettings: boolean
  /** Shows a page and its settings (the selection is cleared), or with undefined closes them. */
  openPageSettings(page: number | undefined): void
  refused: string | undefined
  /** The language texts are being given in (the items' translations); undefined: the form's own texts. */
  textLanguage: Language | undefined
  setTextLanguage(language: Language | undefined): void
}

export function useDesign(initial: DesignDocument): Design {
  const [history, setHistory] = useState(() => createHistory(initial))
  const current = useRef(history)
  current.current = history
  const [picked, setPicked] = useState<string[]>([])
  const [shown, setPage] = useState(0)
  const [pageSettings, setPageSettings] = useState(false)
  const [refused, setRefused] = useState<string>()
  const [textLanguage, setTextLanguage] = useState<Language>()
  const doc = history.present

  // When each change was asked for: its time to reach the DOM is measured as `designer:commit`
  // (performance marks the designer benchmark reads; a user's tools can read them too).
  const asked = useRef<number | null>(null)
  useLayoutEffect(() => {
    if (asked.current === null) return
    performance.measure('designer:commit', { start: asked.current })
    asked.current = null
  }, [history])

  const commit = useCallback((next: History) => {
    asked.current ??= performance.now()
    current.current = next
    setHistory(next)
    setRefused(undefined)
  }, [])

  const run = useCallback(
    (command: Command, merge?: string) => {
      try {
        commit(apply(current.current, command, { merge }))
        return true
      } catch (error) {
        setRefused(error instanceof Error ? error.message : String(error))
        return false
      }
    },
    [commit]
  )

  const selection = useMemo(() => picked.filter((name) => findItem(doc.jsonconfig, name)), [picked, doc])
  const select = useCallback((name: string, add: boolean) => {
    setPageSettings(false)
    setPicked((now) => (!add ? [name] : now.includes(name) ? now.filter((one) => one !== name) : [...now, name]))
  }, [])

  const pages = doc.jsonconfig.form.pages.length
  return {
    doc,
    history,
    run,
    undo: useCallback(() => commit(undo(current.current)), [commit]),
    redo: useCallback(() => commit(redo(current.current)), [commit]),
    canUndo: canUndo(history),
    canRedo: canRedo(history),
    selection,
    select,
    setSelection: useCallback((names: string[]) => {
      if (names.length > 0) setPageSettings(false)
      setPicked(names)
    }, []),
    page: Math.min(shown, Math.max(0, pages - 1)),
    setPage,
    pageSettings,
    openPageSettings: useCallback((page: number | undefined) => {
      if (page !== undefined) {
        setPage(page)
        setPicked([])
      }
      setPageSettings(page !== undefined)
    }, []),
    refused,
    textLanguage,
    setTextLanguage,
  }
}
