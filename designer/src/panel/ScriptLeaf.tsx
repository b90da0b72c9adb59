/**
 * A script setting (conditions, formulas, events) in the script editor, checked against the form as
 * it is. A script with a syntax or type error is not stored (so not saved): the editor keeps it with
 * its problems until it is fixed; each clean version is stored as it is checked.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import type { ScriptDiagnostic } from '../scripts/index.js'
import type { LeafProps } from './leaf.js'
import { usePanel, useTexts } from './panel_context.js'
import { useRowCells } from './row_context.js'
import { TextEditor } from './TextEditor.js'

/** The script editor's own code (and through it Monaco's) loads when a script is first edited. */
const ScriptEditor = lazy(() => import('../scripts/ScriptEditor.js').then((m) => ({ default: m.ScriptEditor })))
const TryScript = lazy(() => import('../scripts/TryScript.js').then((m) => ({ default: m.TryScript })))

export function ScriptLeaf(props: LeafProps) {
  const { scripts } = usePanel()
  if (!scripts) return <TextEditor {...props} />
  return <CheckedScript {...props} scripts={scripts} />
}

function CheckedScript({
  node,
  shared,
  input,
  commit,
  scripts,
}: LeafProps & { scripts: NonNullable<ReturnType<typeof usePanel>['scripts']> }) {
  const texts = useTexts()
  // A repeating group's cell: its scripts read `row`, that row's cells.
  const row = useRowCells()
  const stored = typeof shared.value === 'string' ? shared.value : ''
  const [text, setText] = useState(stored)
  const [problems, setProblems] = useState<ScriptDiagnostic[]>([])
  // What this editor stored last: the stored value coming back is no reason to reset the text.
  const mine = useRef(stored)
  // An undo, or another item selected: the editor shows what is stored.
  useEffect(() => {
    if (stored !== mine.current) setText(stored)
    mine.current = stored
  }, [stored])
  const checked = (found: ScriptDiagnostic[], source: string) => {
    setProblems(found)
    if (found.length === 0 && source !== stored) {
      mine.current = source
      commit(source === '' && node.default === '' ? undefined : source)
    }
  }
  const [editing, setEditing] = useState(false)
  const blocked = problems.length > 0 && text !== stored
  // Monaco opens for the script being edited only: a field has a dozen script settings.
  if (!editing) {
    return (
      <div className="panel-script">
        <pre className="panel-code">{stored}</pre>
        <button type="button" id={input.id} onClick={() => setEditing(true)} data-testid={`edit-script-${node.key}`}>
          {texts.t('panel.edit_script')}
        </button>
      </div>
    )
  }
  return (
    <div className="panel-script" id={input.id}>
      <Suspense fallback={<pre className="panel-code">{text}</pre>}>
        <ScriptEditor
          value={text}
          onChange={setText}
          form={scripts.form}
          registry={scripts.registry}
          row={row}
          onDiagnostics={checked}
          height={110}
          label={node.key}
        />
      </Suspense>
      <Suspense fallback={null}>
        <TryScript source={text} form={scripts.form} registry={scripts.registry} />
      </Suspense>
      {blocked && (
        <p className="panel-script-blocked" role="alert" data-testid="script-blocked">
          {texts.t('panel.script_blocked')}
        </p>
      )}
    </div>
  )
}
