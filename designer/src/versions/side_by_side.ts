import { diffLines } from 'diff'

/**
 * Two versions of a form side by side (issue 6, Versions): each document is printed as canonical
 * JSON (keys sorted, so a re-ordered object is no change) and the lines are compared with jsdiff.
 */

/** JSON with object keys sorted at every level and two-space indentation; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted)
    if (typeof v !== 'object' || v === null) return v
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(v).sort()) out[key] = sorted((v as Record<string, unknown>)[key])
    return out
  }
  return JSON.stringify(sorted(value), null, 2) ?? 'null'
}

export interface Side {
  /** 1-based line number in its document. */
  line: number
  text: string
}

export type RowKind = 'same' | 'changed' | 'removed' | 'added'

export interface DiffRow {
  kind: RowKind
  left: Side | null
  right: Side | null
}

const linesOf = (value: string) => value.replace(/\n$/, '').split('\n')

/** The rows of a side-by-side view: removed lines paired with the added lines that replace them. */
export function sideBySide(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = []
  let left = 1
  let right = 1
  // Every line ends in a newline, so the last lines compare like the others.
  const ended = (text: string) => (text.endsWith('\n') ? text : `${text}\n`)
  const parts = diffLines(ended(before), ended(after))
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (!part.added && !part.removed) {
      for (const text of linesOf(part.value)) {
        rows.push({ kind: 'same', left: { line: left++, text }, right: { line: right++, text } })
      }
      continue
    }
    // jsdiff gives a removal before the addition that replaces it.
    const removed = part.removed ? linesOf(part.value) : []
    const next = parts[i + 1]
    const added = part.added ? linesOf(part.value) : next?.added ? linesOf(next.value) : []
    if (part.removed && next?.added) i++
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const l = k < removed.length ? { line: left++, text: removed[k]! } : null
      const r = k < added.length ? { line: right++, text: added[k]! } : null
      rows.push({ kind: l && r ? 'changed' : l ? 'removed' : 'added', left: l, right: r })
    }
  }
  return rows
}

/** Only the changed rows and `context` unchanged rows around each; null marks skipped unchanged rows. */
export function withContext(rows: readonly DiffRow[], context = 3): (DiffRow | null)[] {
  const keep = rows.map(() => false)
  rows.forEach((row, i) => {
    if (row.kind === 'same') return
    for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) keep[k] = true
  })
  const out: (DiffRow | null)[] = []
  rows.forEach((row, i) => {
    if (keep[i]) out.push(row)
    else if (out.length === 0 || out[out.length - 1] !== null) out.push(null)
  })
  return out
}
