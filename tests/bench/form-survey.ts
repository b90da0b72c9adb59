/**
 * The form of the browser benchmark (tests/bench/form.bench.mjs), as SurveyJS JSON and as the
 * jsonconfig importForm makes of it: 20 pages of 25 questions cycling through text, number, dropdown,
 * checkbox, radiogroup, boolean and comment, a third of them required, with 100 visibleIf conditions.
 *
 * The first question of each page is a driver (text on even pages, number on odd ones); positions 4,
 * 9 and 14 of a page read that page's driver, 19 the previous page's and 24 the one three pages back,
 * so a driver has up to five dependents, on its page and later ones. Every condition is false while
 * the driver is empty, so both libraries start with the same questions hidden (with `--true-at-load`,
 * every one is true and they start shown).
 *
 * Run through ts-run (the contract is TypeScript with .js imports): prints
 * {survey, config, initial, unmapped, firstPage: {shown, hidden}, driver, dependents, shownAtLoad} as JSON;
 * `initial` is the first evaluation the server sends with a form's info (services/process/initial_state.ts:
 * the same contract functions over the interpreter, every condition being an expression).
 */
import { importForm, validateConfig, withDefaults, coreRegistry, initialValues } from '@tramita/contract'
import { initialState } from '@tramita/contract/evaluate'
import { compileExpression, createHybridRunner } from '@tramita/sandbox/expression'

const PAGES = 20
const PER_PAGE = 25
const KINDS = ['text', 'number', 'dropdown', 'checkbox', 'radiogroup', 'boolean', 'comment'] as const
const CHOICES = ['uno', 'dos', 'tres', 'cuatro']
/** Where the conditioned questions sit in each page, and whose driver (pages back) each reads. */
const DEPENDENT_AT: Record<number, number> = { 4: 0, 9: 0, 14: 0, 19: 1, 24: 3 }

type Question = Record<string, unknown>

const driverOf = (page: number) => `q${page * PER_PAGE}`
const textDriver = (page: number) => page % 2 === 0

/**
 * The variant whose conditions are true at load (`--true-at-load`): every dependent shows on an empty
 * driver and hides once it holds 'x' (text) or 12 (number).
 */
const TRUE_AT_LOAD = process.argv.includes('--true-at-load')

/** A condition false on an empty driver and true once it holds 'x' (text) or 12 (number); the variant's, the opposite. */
function condition(driverPage: number, position: number): string {
  const driver = `{${driverOf(driverPage)}}`
  const shape = Object.keys(DEPENDENT_AT).indexOf(String(position)) % 3
  if (TRUE_AT_LOAD) {
    if (textDriver(driverPage)) return [`${driver} <> 'x'`, `${driver} notcontains 'x'`, `${driver} empty`][shape]!
    return [`${driver} empty`, `${driver} <> 12`, `${driver} empty`][shape]!
  }
  if (textDriver(driverPage)) return [`${driver} = 'x'`, `${driver} contains 'x'`, `${driver} notempty`][shape]!
  return [`${driver} > 10`, `${driver} >= 5`, `${driver} notempty`][shape]!
}

function question(n: number, position: number, page: number): Question {
  const name = `q${n}`
  const kind = position === 0 ? (textDriver(page) ? 'text' : 'number') : KINDS[n % KINDS.length]!
  const q: Question = { name, title: `Pregunta ${n + 1}` }
  if (kind === 'text') Object.assign(q, { type: 'text' })
  else if (kind === 'number') Object.assign(q, { type: 'text', inputType: 'number' })
  else if (kind === 'dropdown' || kind === 'checkbox' || kind === 'radiogroup')
    Object.assign(q, { type: kind, choices: CHOICES })
  else Object.assign(q, { type: kind })
  if (n % 3 === 1) q.isRequired = true
  const back = DEPENDENT_AT[position]
  if (back !== undefined && page - back >= 0) q.visibleIf = condition(page - back, position)
  return q
}

export function generateSurvey() {
  const pages = Array.from({ length: PAGES }, (_, page) => ({
    name: `pagina${page + 1}`,
    title: `Página ${page + 1}`,
    elements: Array.from({ length: PER_PAGE }, (_, position) => question(page * PER_PAGE + position, position, page)),
  }))
  // The conditions of pages 1 and 3 (19, 24) would read pages before the first: they read page 0's.
  let count = 0
  for (const page of pages) for (const q of page.elements) if (q.visibleIf) count++
  for (let page = 0; count < 100 && page < PAGES; page++) {
    for (const position of [19, 24]) {
      const q = pages[page]!.elements[position]!
      if (!q.visibleIf && count < 100) {
        q.visibleIf = condition(0, position)
        count++
      }
    }
  }
  return { title: 'Formulario de prueba', pages, showQuestionNumbers: 'off' }
}

const survey = generateSurvey()
const { config, unmapped } = importForm(survey, 'surveyjs')
const problems = validateConfig(config)
if (problems.length > 0) throw new Error(`the imported form is not valid: ${JSON.stringify(problems.slice(0, 3))}`)
const resolved = withDefaults(config, coreRegistry())
const conditions = resolved.fields.filter((f) => f.data.show_with_formule).length
if (resolved.fields.length !== PAGES * PER_PAGE || conditions !== 100)
  throw new Error(`expected 500 fields and 100 conditions, got ${resolved.fields.length} and ${conditions}`)

const interpreter = createHybridRunner(compileExpression, () => Promise.reject(new Error('not an expression')))
const initial = await initialState(resolved, initialValues(resolved, coreRegistry(), {}), { runner: interpreter })

const first = survey.pages[0]!.elements
process.stdout.write(
  JSON.stringify({
    survey,
    config,
    initial,
    unmapped,
    firstPage: {
      shown: first.filter((q) => TRUE_AT_LOAD || !q.visibleIf).map((q) => q.name),
      hidden: first.filter((q) => !TRUE_AT_LOAD && q.visibleIf).map((q) => q.name),
    },
    driver: driverOf(0),
    // Whether the driver's dependents show on an empty driver (the variant) or once it holds 'x'.
    shownAtLoad: TRUE_AT_LOAD,
    // The questions of page 1 that the driver shows and hides.
    dependents: first.filter((q) => String(q.visibleIf ?? '').includes(`{${driverOf(0)}}`)).map((q) => q.name),
  })
)
