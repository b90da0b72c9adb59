/**
 * Monaco, bundled (never from a CDN), with its editor and TypeScript workers built by Vite. Only the
 * script editor's lazily loaded chunk imports this module: the designer's first load carries none of
 * it, and the ~7 MB TypeScript worker starts when the first script editor asks for diagnostics.
 */
import * as monaco from 'monaco-editor'
import { loader } from '@monaco-editor/react'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import TypeScriptWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker'
import { SCRIPT_COMPILER_OPTIONS, TYPINGS_PATH } from './script_source.js'

globalThis.MonacoEnvironment = {
  getWorker: (_id, label) =>
    label === 'typescript' || label === 'javascript' ? new TypeScriptWorker() : new EditorWorker(),
}

// Without this @monaco-editor/react fetches Monaco from a CDN.
loader.config({ monaco })

const defaults = monaco.typescript.typescriptDefaults
defaults.setCompilerOptions({
  ...SCRIPT_COMPILER_OPTIONS,
  // Monaco's enum stops at ES2020; its TypeScript knows ES2022 (9).
  target: SCRIPT_COMPILER_OPTIONS.target as monaco.typescript.ScriptTarget,
  lib: [...SCRIPT_COMPILER_OPTIONS.lib],
})
// The editor's model holds the bare script, which is not valid TypeScript on its own (a top-level
// `return`): its own diagnostics are off, and ScriptEditor checks a wrapped copy (script_source.ts).
defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: true, noSuggestionDiagnostics: true })
defaults.setEagerModelSync(true)

let typings: { text: string; lib: monaco.IDisposable } | undefined

/** The form's declarations (scriptTypings) as the scripts' extra library; replaced when they change. */
export function setFormTypings(text: string): void {
  if (typings?.text === text) return
  typings?.lib.dispose()
  typings = { text, lib: defaults.addExtraLib(text, TYPINGS_PATH) }
}

export { monaco }
