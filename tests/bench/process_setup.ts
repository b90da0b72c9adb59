/**
 * Set-up of the process benchmarks (tests/bench/process.bench.mjs), run with ts-run inside core/server
 * against the bench's database once the server has migrated and seeded it: publishes the two forms
 * through publishForm and prints their keys as one JSON line. Cases are opened through the HTTP
 * routes by the bench itself.
 *
 * - `saves`: 100 fields (text, number, select, date) over 4 pages, 10 show_with_formule conditions and
 *   5 formulas (two levels), so validateSubmission runs scripts in the server's sandbox pool. Its one
 *   fill step loops back to itself: every save completes the task and assigns the next one.
 * - `steps`: a small form without scripts whose fill step leads to an approval whose decision leads
 *   back, so the steps alternate between the enter and the approve route and each case is reusable.
 */
import { createIgnitor } from '../../core/server/bin/ignite.ts'

const TYPES = ['text', 'number', 'select', 'date'] as const
const OPTIONS = [
  { id: 'a', label: 'Opción A' },
  { id: 'b', label: 'Opción B' },
  { id: 'c', label: 'Opción C' },
]

/** The 100-field form and one complete submission of it. */
function savesForm() {
  const fields: Record<string, unknown>[] = []
  const values: Record<string, unknown> = {}
  for (let i = 0; i < 100; i++) {
    const type = TYPES[i % TYPES.length]!
    const name = `c${i}`
    const data: Record<string, unknown> = { label: { value: `Campo ${i}` }, validate: { required: i % 3 === 0 } }
    if (type === 'select') data.options = OPTIONS
    if (type === 'number') data.limit = { min: 0, max: 100_000 }
    // Every tenth field from c9 on is shown by a condition on an earlier number field (half true, half false).
    if (i % 10 === 9) {
      data.show_with_formule = `c${i - 8} ${i % 20 === 9 ? '>' : '<'} 10`
      data.validate = { required: false }
    }
    const field: Record<string, unknown> = { field_name: name, type, data }
    fields.push(field)
    values[name] = { text: `texto ${i}`, number: i * 3, select: 'b', date: '2026-11-23' }[type]
  }
  // Five formulas on number fields (readonly: computed, never typed): four read typed fields, the last
  // reads two of them, so the formulas run in two levels.
  const formulas: Record<number, string> = {
    97: 'c1 + c5 * 2',
    93: 'c13 > 20 ? c13 - 20 : 0',
    89: "c2 == 'b' ? c17 : 0",
    85: 'Math.round(c21 / 3)',
    81: 'c97 + c93',
  }
  for (const [i, formula] of Object.entries(formulas)) {
    const field = fields[Number(i)]!
    ;(field.data as Record<string, unknown>).formule = formula
    field.state = { natural: 'readonly' }
    delete values[`c${i}`]
  }
  const pages = [0, 1, 2, 3].map((p) => {
    const layout: string[][] = []
    for (let i = p * 25; i < p * 25 + 25; i += 2) layout.push(i + 1 < p * 25 + 25 ? [`c${i}`, `c${i + 1}`] : [`c${i}`])
    return { name: `Página ${p + 1}`, layout }
  })
  return { jsonconfig: { form: { pages }, fields }, values }
}

const STATES = [
  { id: 'init', label: 'Iniciado', color: '#7f82ff' },
  { id: 'tramite', label: 'En trámite', color: '#f0a000' },
  { id: 'end', label: 'Finalizado', color: '#1C1066' },
]

/** The 100-field form's process: one fill step that leads back to itself. */
function savesProcess(userId: number) {
  return {
    label: 'Bench de guardados',
    states: STATES,
    start: { step: 'llenar' },
    // notify off: the figure is the save, not the mail job the in-process worker would run beside it.
    steps: [
      {
        id: 'llenar',
        label: 'Llenar',
        assign: { type: 'user', id: userId },
        state: 'tramite',
        next: { step: 'llenar' },
        notify: false,
      },
    ],
  }
}

/** The small form of the steps benchmark and its process: fill → approve → (otra vez) fill. */
function stepsForm() {
  const fields = [
    { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
    { field_name: 'dias', type: 'number', data: { label: { value: 'Días' }, limit: { min: 0, max: 1_000_000 } } },
    { field_name: 'tipo', type: 'select', data: { label: { value: 'Tipo' }, options: OPTIONS } },
    { field_name: 'fecha', type: 'date', data: { label: { value: 'Fecha' } } },
  ]
  return {
    jsonconfig: {
      form: {
        pages: [
          {
            name: 'Datos',
            layout: [
              ['nombre', 'dias'],
              ['tipo', 'fecha'],
            ],
          },
        ],
      },
      fields,
    },
    values: { nombre: 'Ana Ruiz', dias: 3, tipo: 'a', fecha: '2026-11-23' },
  }
}

function stepsProcess(userId: number) {
  return {
    label: 'Bench de pasos',
    states: STATES,
    start: { step: 'llenar' },
    steps: [
      {
        id: 'llenar',
        label: 'Llenar',
        assign: { type: 'user', id: userId },
        state: 'tramite',
        next: { step: 'aprobar' },
        notify: false,
      },
      {
        id: 'aprobar',
        label: 'Aprobar',
        kind: 'approve',
        // One signed-in user walks every step here; four-eyes (on by default for approvals) would refuse
        // the second. Its rule is covered by the functional tests, not timed.
        four_eyes: false,
        assign: { type: 'user', id: userId },
        notify: false,
        decisions: [{ id: 'otra', label: 'Otra vez', color: '#336699', next: { step: 'llenar' } }],
      },
    ],
  }
}

// Console mode, as the CLI boots: config, database and plugins, no HTTP listener.
const app = createIgnitor().createApp('console')
await app.init()
await app.boot()
await app.start(async () => {})
try {
  const { publishForm } = await import('../../core/server/app/services/process/forms.ts')
  const userId = 1 // the demo superuser `admin` (seeded with --seed-demo)
  const saves = savesForm()
  const steps = stepsForm()
  const published = {
    saves: await publishForm({
      name: 'Bench 100 campos',
      jsonconfig: saves.jsonconfig,
      process: savesProcess(userId),
      userId,
    }),
    steps: await publishForm({
      name: 'Bench pasos',
      jsonconfig: steps.jsonconfig,
      process: stepsProcess(userId),
      userId,
    }),
  }
  console.log(
    JSON.stringify({
      saves: { ...published.saves, values: saves.values },
      steps: { ...published.steps, values: steps.values },
    })
  )
} finally {
  await app.terminate()
}
