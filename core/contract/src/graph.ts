/**
 * The dependency graph of a form's scripts: which fields each condition (show_with_formule) and
 * formula (formule) reads, found statically by the sandbox's `analyzeScript`. A change to one field
 * re-runs only the scripts that read it, and, through formulas, what reads the fields they compute.
 */
import { analyzeScript, type Json } from '@tramita/sandbox'
import { emptyRow, repeatCells, type RepeatItem } from './types/repeat.js'
import type { FormConfig, FormItem } from './config.js'

export interface FormScript {
  /** `<field_name>:condition`, `<field_name>:formula` or `<field_name>:cells`. */
  id: string
  field: string
  /**
   * 'cells': the conditions of a repeating group's cells, run once per row (evaluate.ts); a group's
   * cell formulas are one 'formula' script with `cells`, whose result is the group's rows.
   */
  kind: 'condition' | 'formula' | 'cells'
  source: string
  /** Names the script reads (for 'cells': the group itself and the form's fields its conditions read). */
  deps: string[]
  /**
   * A group's cells' conditions or formulas; `row` in them is the row's values, not a field. A cell
   * formula's `wave` is 0, or 1 + the highest wave of the computed cells of the row it reads: a wave
   * runs after the one before it has set the row (evaluate.ts).
   */
  cells?: { cell: string; source: string; wave: number }[]
  /** With `cells`: a row with every cell at its default (a row's left-out cells read these). */
  emptyRow?: Record<string, Json>
}

export interface FormGraph {
  /** Every script: the formulas (those in cycles too), then the conditions. */
  scripts: FormScript[]
  conditions: FormScript[]
  /** Formulas in levels: a formula only reads fields computed by earlier levels (or entered ones). */
  formulaLevels: FormScript[][]
  /** Formula chains that read each other (left out of formulaLevels). */
  cycles: string[][]
  /** The level of a formula's field in formulaLevels (0 for anything else). */
  levelOf(field: string): number
  /** The scripts to re-run after `field` changes, formulas first in dependency order, then conditions. */
  affectedBy(field: string): FormScript[]
}

const graphs = new WeakMap<FormConfig, FormGraph>()

/** Each script's deps by its id, as another build of the same config found them (InitialState.reads). */
export type KnownReads = Readonly<Record<string, readonly string[]>>

/**
 * The graph of a resolved config (built once per config object). With `known`, a script listed there
 * takes its deps from it and is not parsed; the others are.
 */
export function buildGraph(config: FormConfig, known?: KnownReads): FormGraph {
  let graph = graphs.get(config)
  if (!graph) {
    graph = build(config, known)
    graphs.set(config, graph)
  }
  return graph
}

/** The sources a script runs: its own, or for a 'cells' script each cell's condition. */
export function sourcesOf(script: FormScript): string[] {
  return script.cells ? script.cells.map((c) => c.source) : [script.source]
}

function script(field: string, kind: FormScript['kind'], source: unknown, known?: KnownReads): FormScript | undefined {
  if (typeof source !== 'string' || source.trim() === '') return undefined
  const id = `${field}:${kind}`
  const given = known?.[id]
  return { id, field, kind, source, deps: given ? [...given] : analyzeScript(source).names }
}

/**
 * One script for all the cell conditions (`show_with_formule`, kind 'cells') or all the cell formulas
 * (`formule`, kind 'formula') of a group: a change to the group or to what they read re-runs them.
 */
function cellScripts(item: FormItem, key: 'show_with_formule' | 'formule', known?: KnownReads): FormScript | undefined {
  const group = item.field_name
  const cells = repeatCells(item).flatMap((cell) => {
    const source: unknown = cell.data[key]
    return typeof source === 'string' && source.trim() !== '' ? [{ cell: cell.field_name, source, wave: 0 }] : []
  })
  if (cells.length === 0) return undefined
  if (key === 'formule') setWaves(cells)
  const kind = key === 'formule' ? 'formula' : 'cells'
  const id = `${group}:${kind === 'formula' ? 'cell-formulas' : 'cells'}`
  const given = known?.[id]
  const deps = new Set(given ?? [group])
  if (!given)
    for (const { source } of cells) for (const name of analyzeScript(source).names) if (name !== 'row') deps.add(name)
  return {
    id,
    field: group,
    kind,
    source: '',
    deps: [...deps],
    cells,
    emptyRow: emptyRow(item as unknown as RepeatItem) as Record<string, Json>,
  }
}

/** `row.x` or `row['x']`: a cell of the same row a cell script reads. */
const ROW_READ = /(?<![\w$.])row\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(['"])([^'"\\]+)\2\s*\])/g

/**
 * Each cell formula's wave, from the computed cells of the row it reads. Cells that read each other
 * in a ring keep the wave they had when the passes run out (at most one pass per cell).
 */
function setWaves(cells: { cell: string; source: string; wave: number }[]): void {
  const computed = new Map(cells.map((c) => [c.cell, c]))
  const reads = new Map(
    cells.map((c) => [c, [...c.source.matchAll(ROW_READ)].map((m) => computed.get(m[1] ?? m[3]!)).filter((r) => r)])
  )
  for (let pass = 0; pass < cells.length; pass++) {
    let moved = false
    for (const c of cells) {
      const wave = Math.max(0, ...reads.get(c)!.map((r) => (r === c ? 0 : r!.wave + 1)))
      if (wave > c.wave) {
        c.wave = Math.min(wave, cells.length - 1)
        moved = true
      }
    }
    if (!moved) return
  }
}

function build(config: FormConfig, known?: KnownReads): FormGraph {
  const conditions: FormScript[] = []
  const formulas = new Map<string, FormScript>()
  for (const item of [...config.fields, ...config.elements]) {
    const condition = script(item.field_name, 'condition', item.data.show_with_formule, known)
    if (condition) conditions.push(condition)
    const cells = cellScripts(item, 'show_with_formule', known)
    if (cells) conditions.push(cells)
  }
  for (const item of config.fields) {
    // A group computes its cells' formulas row by row (validateConfig refuses a formula of its own beside them).
    const formula = cellScripts(item, 'formule', known) ?? script(item.field_name, 'formula', item.data.formule, known)
    if (formula) formulas.set(item.field_name, formula)
  }

  // Kahn's algorithm over formula → formula edges gives levels; what is left is in a cycle.
  const levels: FormScript[][] = []
  const levelOf = new Map<string, number>()
  let pending = [...formulas.values()]
  while (pending.length > 0) {
    // A formula may read its own field: it then sees the value as entered, which is no cycle.
    const ready = pending.filter((f) => f.deps.every((d) => d === f.field || !formulas.has(d) || levelOf.has(d)))
    if (ready.length === 0) break
    const level = levels.length
    for (const f of ready) levelOf.set(f.field, level)
    levels.push(ready)
    pending = pending.filter((f) => !levelOf.has(f.field))
  }
  const cycles = findCycles(pending)

  const readers = new Map<string, FormScript[]>()
  for (const s of [...formulas.values(), ...conditions]) {
    for (const dep of s.deps) readers.set(dep, [...(readers.get(dep) ?? []), s])
  }
  const cache = new Map<string, FormScript[]>()

  function affectedBy(field: string): FormScript[] {
    const cached = cache.get(field)
    if (cached) return cached
    const hit = new Set<FormScript>()
    const queue = [field]
    const seen = new Set(queue)
    while (queue.length > 0) {
      for (const reader of readers.get(queue.shift()!) ?? []) {
        if (hit.has(reader)) continue
        hit.add(reader)
        if (reader.kind === 'formula' && !seen.has(reader.field)) {
          seen.add(reader.field)
          queue.push(reader.field)
        }
      }
    }
    const ordered = [
      ...[...hit]
        .filter((s) => s.kind === 'formula' && levelOf.has(s.field))
        .sort((a, b) => levelOf.get(a.field)! - levelOf.get(b.field)!),
      ...[...hit].filter((s) => s.kind !== 'formula'),
    ]
    cache.set(field, ordered)
    return ordered
  }

  return {
    scripts: [...formulas.values(), ...conditions],
    conditions,
    formulaLevels: levels,
    cycles,
    affectedBy,
    levelOf: (field) => levelOf.get(field) ?? 0,
  }
}

/** One cycle (as a list of fields, first repeated at the end) per group of formulas that read each other. */
function findCycles(stuck: FormScript[]): string[][] {
  const byField = new Map(stuck.map((f) => [f.field, f]))
  const cycles: string[][] = []
  const done = new Set<string>()
  for (const start of byField.keys()) {
    if (done.has(start)) continue
    const path: string[] = []
    let at: string | undefined = start
    while (at !== undefined && !path.includes(at)) {
      path.push(at)
      const from: string = at
      at = byField.get(from)!.deps.find((d) => d !== from && byField.has(d))
    }
    if (at !== undefined) {
      const cycle = [...path.slice(path.indexOf(at)), at]
      if (!cycle.some((f) => done.has(f))) cycles.push(cycle)
    }
    for (const f of path) done.add(f)
  }
  return cycles
}
