/** The pure-expression interpreter (compile.ts, evaluate.ts), in the shape the hybrid runner takes. */
import type { Compiled } from '../hybrid.ts'
import { compileTree } from './compile.ts'
import { runTree } from './evaluate.ts'

export function compileExpression(source: string): Compiled {
  const compiled = compileTree(source)
  if ('refused' in compiled) return compiled
  return { run: (vars) => runTree(compiled, vars) }
}
