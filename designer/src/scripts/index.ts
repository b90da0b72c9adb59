/**
 * The designer's script tools: ScriptEditor (Monaco, loaded on first use) with syntax and type
 * errors reported before saving, TryScript (runs a script in the browser sandbox), and their pure
 * parts (script_source.ts, samples.ts). Nothing here loads Monaco or QuickJS until it is shown/run.
 */
export { ScriptEditor, ScriptProblems, type ScriptEditorProps } from './ScriptEditor.js'
export { TryScript, type TryScriptProps } from './TryScript.js'
export type { ScriptDiagnostic } from './script_source.js'
export { sampleVariables, type ScriptFormConfig } from './samples.js'
