/**
 * What the logic editors share: reading and writing document values at a path (each write a model
 * command, typing one undo step per key), the contract's problems relative to an editor's own root
 * (the panel's editors look problems up by paths inside what they edit), and the form's names.
 */
import { getIn, pathKeys, setValue, toPointer, type Command, type Path, type ProblemIndex } from '../model/index.js'
import type { ValueSource } from '../panel/source.js'
import type { ShownProblem } from '../panel/problems.js'

export type Run = (command: Command, merge?: string) => boolean

/** The document's values under `base`, written with setValue (the panel's editors speak ValueSource). */
export function docSource(doc: unknown, run: Run, base: readonly (string | number)[]): ValueSource {
  return {
    read(path) {
      const value = getIn(doc, [...base, ...path])
      return { value, mixed: false, set: value !== undefined, first: value }
    },
    write(path, value) {
      const at = toPointer([...base, ...path])
      run(setValue(at, value), `logic:${at}`)
    },
  }
}

/** The problems at `base` or inside it, with paths relative to it (as the panel's editors read them). */
export function problemsInside(problems: ProblemIndex, base: Path): ShownProblem[] {
  const prefix = toPointer(pathKeys(base))
  return problems.under(base).map((p) => ({ path: p.path.slice(prefix.length), message: p.message, item: '' }))
}

/** A name choice: a field or element of the form, named by its label when it has one. */
export interface NameOption {
  id: string
  label: string
}

/** The pages as choices by index ("1. Datos"), as start_page and go_to_page store them. */
export const pageOptions = (pages: readonly string[]): NameOption[] =>
  pages.map((name, index) => ({ id: String(index), label: `${index + 1}. ${name}` }))

/** The index a stored page reference shows as: a number as it is, a page's name as its index. */
export function pageIndex(pages: readonly string[], value: unknown): unknown {
  if (typeof value !== 'string') return value
  const index = pages.indexOf(value)
  return index >= 0 ? index : value
}
