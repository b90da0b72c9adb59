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

const OWNER = 'tramita-scripts'
/** Checks wait for a pause in typing. */
const CHECK_DELAY_MS = 250

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
}: ScriptEditorProps) {
  const id = useMemo(() => ++models, [])
  const path = `file:///scripts/script-${id}.ts`
  const typings = useMemo(() => scriptTypings(form, registry), [form, registry])
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
    const prepared = prepareCheck(source)
    let found: ScriptDiagnostic[]
    if ('syntax' in prepared) found = [prepared.syntax]
    else {
      const hidden = checkModel.current
      if (hidden.getValue() !== prepared.wrapped.text) hidden.setValue(prepared.wrapped.text)
      try {
        const worker = await (await monaco.typescript.getTypeScriptWorker())(hidden.uri)
        const file = hidden.uri.toString()
        const [syntactic, semantic] = await Promise.all([
          worker.getSyntacticDiagnostics(file),
          worker.getSemanticDiagnostics(file),
        ])
        found = mapDiagnostics(prepared.wrapped, [...syntactic, ...semantic])
      } catch {
        // The worker was torn down (the editor closed mid-check): nothing to report.
        return
      }
    }
    if (mine !== round.current || model.isDisposed()) return
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
  }, [])

  // The editor owns the text while it is typed (a controlled `value` lags a fast typist and would
  // write an older text back over new keystrokes); only a change from outside (undo) is pushed in.
  const emitted = useRef(value)
  useEffect(() => {
    const editor = editorRef.current
    if (!editor || value === emitted.current || value === editor.getValue()) return
    emitted.current = value
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
        emitted.current = text ?? ''
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
