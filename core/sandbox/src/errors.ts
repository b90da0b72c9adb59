/** Error codes and the messages the sandbox itself writes (inside QuickJS too, so plain strings). */
import type { ScriptErrorCode, ScriptResult } from './types.ts'

export const MESSAGES = {
  timeout: 'the script ran past its deadline',
  memory: 'the script ran out of memory',
  stack: 'stack overflow: the script recursed too deeply',
  neverSettled: 'the script returned a promise that never settled',
  notJson: 'the value is not JSON',
  inactive: 'can only be called while a script runs, not after it returned or awaited',
  fieldName: 'the field name must be a non-empty string',
  state: 'the state must be an object',
  natural: "natural must be 'enabled', 'disabled' or 'readonly'",
  boolean: 'must be true or false',
  disposed: 'the sandbox was disposed',
  crashed: 'the sandbox stopped unexpectedly and was restarted',
  restarting: 'the sandbox is restarting after a fault; try again',
  unavailable: 'the sandbox could not start; it is tried again shortly',
} as const

/** The spec's "missing variable gives a variable-not-found message". */
export function variableNotFound(name: string): string {
  return `variable '${name}' not found`
}

export function failure(code: ScriptErrorCode, message: string): ScriptResult {
  return { ok: false, error: { code, message } }
}
