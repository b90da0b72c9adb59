/**
 * The script editor itself (loaded lazily through ScriptEditor): Monaco on the bare script for
 * editing, completion and hovers, and a hidden model with the wrapped script (script_source.ts) that
 * TypeScript checks; its errors come back as markers on the script's own lines and through
 * `onDiagnostics`. Syntax is judged first by the sandbox's parser, as the server judges it.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react'
import Editor, { type OnMount } from '@monaco-editor/react'
import { scriptTypings } from '@tramita/contract/typings'
import { monaco, setFormTypings } from './monaco_setup.js'
import { mapDiagnostics, prepareCheck, type ScriptDiagnostic } from './script_source.js'
import type { ScriptEditorProps } from './ScriptEditor.js'
import { workerCheck } from './worker_check.js'

const OWNER = 'tramita-scripts'
/** Checks wait for a pause in typing. */
const CHECK_DELAY_MS = 250
/** Emitted texts remembered until the caller's `value` catches up (far more than a render lags). */
const EMITTED_KEPT = 500

let models = 0

export default function MonacoScriptEditor({
  value,
  onChange,
  form,
  registry,
  onDiagnostics,
  height = 160,
  readOnly = false,
  label,
  row,
}: ScriptEditorProps) {
  const id = useMemo(() => ++models, [])
  const path = `file:///scripts/script-${id}.ts`
  const typings = useMemo(() => scriptTypings(form, registry, row), [form, registry, row])
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const checkModel = useRef<monaco.editor.ITextModel | null>(null)
  const round = useRef(0)
  const report = useRef(onDiagnostics)
  useEffect(() => {
    report.current = onDiagnostics
  }, [onDiagnostics])

  useEffect(() => setFormTypings(typings), [typings])

  const check = useCallback(async (source: string) => {
    const mine = ++round.current
    const model = editorRef.current?.getModel()
    if (!model || !checkModel.current) return
    // Only the latest text is reported: a check that ends after a newer one began, or after more was
    // typed, says nothing (the newer text's check follows), so an older text never lands over it.
    const latest = () => mine === round.current && !model.isDisposed() && model.getValue() === source
    const publish = (found: ScriptDiagnostic[]) => {
      if (!latest()) return
      monaco.editor.setModelMarkers(
        model,
        OWNER,
        found.map((d) => ({
          severity: monaco.MarkerSeverity.Error,
          message: d.message,
          code: d.code === undefined ? undefined : String(d.code),
          startLineNumber: d.line,
          startColumn: d.column,
          endLineNumber: d.endLine,
          endColumn: d.endColumn,
        }))
      )
      report.current?.(found, source)
    }
    const prepared = prepareCheck(source)
    if ('syntax' in prepared) return publish([prepared.syntax])
    const typeCheck = async () => {
      const hidden = checkModel.current
      if (!hidden || hidden.isDisposed()) throw new Error('the script editor was closed')
      if (hidden.getValue() !== prepared.wrapped.text) hidden.setValue(prepared.wrapped.text)
      const worker = await (await monaco.typescript.getTypeScriptWorker())(hidden.uri)
      const file = hidden.uri.toString()
      const [syntactic, semantic] = await Promise.all([
        worker.getSyntacticDiagnostics(file),
        worker.getSemanticDiagnostics(file),
      ])
      return mapDiagnostics(prepared.wrapped, [...syntactic, ...semantic])
    }
    const found = await workerCheck(typeCheck, { wanted: latest, late: publish })
    if (found === undefined && latest()) {
      // The worker kept failing or hung: the script goes on with its syntax checked and its types
      // not, rather than being dropped; the contract's validation still judges it where it is saved.
      console.warn('Tramita: the script’s types could not be checked; it is kept on its syntax alone')
    }
    publish(found ?? [])
  }, [])

  // The editor owns the text while it is typed; only a change from outside (undo) is pushed in. The
  // caller's `value` lags a fast typist, and on a busy page a render can even commit an older text
  // while newer keystrokes are still on their way: so every text the editor emitted is remembered
  // until `value` comes back with it, and none of them, however old, is ever written back.
  const emitted = useRef<string[]>([])
  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    const pending = emitted.current
    const echo = pending.indexOf(value)
    if (echo >= 0) {
      pending.splice(0, echo + 1)
      return
    }
    if (value === editor.getValue()) return
    pending.length = 0
    editor.setValue(value)
  }, [value])

  const onMount: OnMount = (editor) => {
    editorRef.current = editor
    checkModel.current = monaco.editor.createModel(
      '',
      'typescript',
      monaco.Uri.parse(`file:///scripts/script-${id}.check.ts`)
    )
    void check(editor.getValue())
  }

  // A change of the script or of the form's typings: check again after a pause.
  useEffect(() => {
    if (!editorRef.current) return
    const timer = setTimeout(() => void check(value), CHECK_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value, typings, check])

  useEffect(
    () => () => {
      round.current++
      checkModel.current?.dispose()
      checkModel.current = null
    },
    []
  )

  return (
    <Editor
      path={path}
      language="typescript"
      defaultValue={value}
      onChange={(text) => {
        const pending = emitted.current
        pending.push(text ?? '')
        // A caller that never echoes the text back must not make this grow without end.
        if (pending.length > EMITTED_KEPT) pending.shift()
        onChange(text ?? '')
      }}
      onMount={onMount}
      height={height}
      loading={null}
      options={{
        readOnly,
        ariaLabel: label,
        minimap: { enabled: false },
        lineNumbers: 'on',
        scrollBeyondLastLine: false,
        automaticLayout: true,
        fixedOverflowWidgets: true,
        tabSize: 2,
        wordWrap: 'on',
        fontSize: 13,
      }}
    />
  )
}
