/**
 * The pure-expression interpreter (compile.ts, evaluate.ts), in the shape the hybrid runner takes; with
 * the runner, as the browser imports them (`@tramita/sandbox/expression`: nothing of QuickJS).
 */
import type { Compiled } from '../hybrid.ts'
import { compileTree } from './compile.ts'
import { runTree } from './evaluate.ts'

export function compileExpression(source: string): Compiled {
  const compiled = compileTree(source)
  if ('refused' in compiled) return compiled
  return { run: (vars) => runTree(compiled, vars) }
}

export { createHybridRunner, type Compiled, type HybridRunner } from '../hybrid.ts'
