/**
 * The designer's script editor. Monaco and its workers load only when one is first shown (a lazy
 * chunk); until then a note says it is loading. The problems list under the editor shows what
 * `onDiagnostics` reports, so a caller only has to block saving while the list is not empty.
 */
import { lazy, Suspense, useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldTypeRegistry } from '@tramita/contract'
import type { ScriptFormConfig } from './samples.js'
import type { ScriptDiagnostic } from './script_source.js'
import './scripts.css'

export interface ScriptEditorProps {
  /** The script (an expression or a function body: @tramita/sandbox's language). */
  value: string
  onChange: (value: string) => void
  /** The form as it is now (its jsonconfig): field names and types for completion and checking. */
  form: ScriptFormConfig
  /** The registry with the plugins' types (default: the core types). */
  registry?: FieldTypeRegistry
  /**
   * Syntax and type errors after each check ([] when the script is clean), in script positions, with
   * the source that was checked (the text may have changed since: a later check follows).
   */
  onDiagnostics?: (diagnostics: ScriptDiagnostic[], source: string) => void
  /** Editor height in px or any CSS length (default 160). */
  height?: number | string
  readOnly?: boolean
  /** The accessible name of the editor (e.g. "Visibility condition of Edad"). */
  label?: string
  /** The problems list under the editor (default true). */
  showProblems?: boolean
  /** A repeating group's cells, for a cell's script: it reads `row` (that row's values). */
  row?: readonly ScriptCell[]
}

/** A cell of a repeating group as a script sees it: its name and type. */
export interface ScriptCell {
  field_name: string
  type: string
}

const MonacoScriptEditor = lazy(() => import('./MonacoScriptEditor.js'))

export function ScriptEditor({ showProblems = true, onDiagnostics, ...props }: ScriptEditorProps) {
  const { t } = useTranslation()
  const [problems, setProblems] = useState<ScriptDiagnostic[] | null>(null)
  const report = useCallback(
    (found: ScriptDiagnostic[], source: string) => {
      setProblems(found)
      onDiagnostics?.(found, source)
    },
    [onDiagnostics]
  )
  return (
    <div className="script-editor">
      <div className="script-editor-frame">
        <Suspense fallback={<p className="script-editor-loading">{t('scripts.loading')}</p>}>
          <MonacoScriptEditor {...props} onDiagnostics={report} />
        </Suspense>
      </div>
      {showProblems && problems && <ScriptProblems problems={problems} />}
    </div>
  )
}

/** The problems of a script, each with its line and column; a polite live region. */
export function ScriptProblems({ problems }: { problems: readonly ScriptDiagnostic[] }) {
  const { t } = useTranslation()
  return (
    <div className="script-problems" role="status" aria-live="polite">
      {problems.length === 0 ? (
        <p className="script-ok">{t('scripts.no_problems')}</p>
      ) : (
        <>
          <p className="script-problems-title">{t('scripts.problems', { count: problems.length })}</p>
          <ul>
            {problems.map((d, i) => (
              <li key={i}>
                <span className="script-problem-where">
                  {t(d.kind === 'syntax' ? 'scripts.syntax_error' : 'scripts.type_error')} ·{' '}
                  {t('scripts.at', { line: d.line, column: d.column })}
                </span>{' '}
                <span className="script-problem-message">{d.message}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
