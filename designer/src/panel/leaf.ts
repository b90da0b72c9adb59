/** The props every single-value editor (text, number, select...) takes from LeafEditor. */
import type { EditorNode } from './schema_nodes.js'
import type { SharedValue } from './values.js'

/** Ties the input to its label, hint and problems. */
export interface InputProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean
  /** The language of a translation's box. */
  lang?: string
}

export interface LeafProps {
  node: EditorNode
  shared: SharedValue
  input: InputProps
  /** The default (or "differs", or "not set") as the empty box shows it. */
  placeholder: string
  /** Stores a value; undefined removes the key (the default applies again). */
  commit(value: unknown): void
}
