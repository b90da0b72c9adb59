/**
 * A generated form for tests and benchmarks: `pages` pages of `fieldsPerPage` fields cycling through
 * text, number, select, checkbox and date, with `conditions` show_with_formule conditions, each reading
 * one of 20 number fields, and half the fields required. Deterministic for a given shape.
 */
import type { FormConfigInput } from '../src/index.js'

export interface GeneratedForm {
  config: FormConfigInput
  /** A complete, valid submission (every required field filled). */
  values: Record<string, unknown>
  /** Which fields each condition reads: condition owner → read field. */
  conditionReads: Map<string, string>
}

const KINDS = ['text', 'number', 'select', 'checkbox', 'date'] as const

export function generateForm(pages = 20, fieldsPerPage = 25, conditions = 100): GeneratedForm {
  const fields: any[] = []
  const values: Record<string, unknown> = {}
  const conditionReads = new Map<string, string>()
  const layouts: string[][][] = []
  let n = 0
  for (let p = 0; p < pages; p++) {
    const layout: string[][] = []
    for (let i = 0; i < fieldsPerPage; i++, n++) {
      const name = `f${n}`
      const type = KINDS[n % KINDS.length]!
      const data: Record<string, unknown> = { label: { value: `Campo ${n}` }, validate: { required: n % 2 === 0 } }
      if (type === 'select')
        data.options = [
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
        ]
      if (type === 'number') data.limit = { min: 0, max: 1000 }
      fields.push({ field_name: name, type, data })
      values[name] = { text: `texto ${n}`, number: n, select: 'a', checkbox: true, date: '2026-11-23' }[type]
      layout.push([name])
    }
    layouts.push(layout)
  }
  // Conditions on every `step`-th field from the fifth on; each reads one of 20 number fields (f1, f6,
  // ... f96), so every read field has several dependents, and always an earlier field.
  const step = Math.max(1, Math.floor(fields.length / conditions))
  for (let c = 0, i = step - 1; c < conditions && i < fields.length; c++, i += step) {
    const read = `f${5 * (c % 20) + 1}`
    if (read === fields[i].field_name) continue
    fields[i].data.show_with_formule = `${read} > 10`
    conditionReads.set(fields[i].field_name, read)
  }
  return {
    config: {
      form: { pages: layouts.map((layout, p) => ({ name: `Página ${p + 1}`, layout })) },
      fields,
    },
    values,
    conditionReads,
  }
}
