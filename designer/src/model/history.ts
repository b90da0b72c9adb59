/**
 * Undo and redo of every command. Documents are immutable and share what a command did not touch,
 * so the history keeps whole documents: undo gives back exactly the document that was, and a step
 * costs only what changed. Bounded (200 steps by default): the oldest steps are forgotten.
 */
import type { Command, DesignDocument } from './document.js'

export const HISTORY_LIMIT = 200

export interface History {
  readonly past: readonly DesignDocument[]
  readonly present: DesignDocument
  readonly future: readonly DesignDocument[]
  readonly limit: number
  /** The merge key of the last step (see `apply`). */
  readonly mergeKey?: string
}

export function createHistory(doc: DesignDocument, limit = HISTORY_LIMIT): History {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A history keeps at least one step, not ${limit}`)
  return { past: [], present: doc, future: [], limit }
}

export interface ApplyOptions {
  /**
   * Steps with the same key in a row are one step of history: typing a label letter by letter is
   * undone as one change. Any other step, an undo or a redo ends the run.
   */
  merge?: string
}

/** The history after a command; a command that changes nothing leaves it as it was. */
export function apply(history: History, command: Command, options: ApplyOptions = {}): History {
  const next = command(history.present)
  if (next === history.present) return history
  const merging = options.merge !== undefined && options.merge === history.mergeKey && history.past.length > 0
  const past = merging ? history.past : [...history.past, history.present].slice(-history.limit)
  return { past, present: next, future: [], limit: history.limit, mergeKey: options.merge }
}

export const canUndo = (history: History) => history.past.length > 0
export const canRedo = (history: History) => history.future.length > 0

export function undo(history: History): History {
  if (!canUndo(history)) return history
  return {
    past: history.past.slice(0, -1),
    present: history.past[history.past.length - 1]!,
    future: [history.present, ...history.future],
    limit: history.limit,
  }
}

export function redo(history: History): History {
  if (!canRedo(history)) return history
  return {
    past: [...history.past, history.present],
    present: history.future[0]!,
    future: history.future.slice(1),
    limit: history.limit,
  }
}
