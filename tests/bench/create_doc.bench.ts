/**
 * create_doc (issue 7): a 100-field form's document — the placeholders' texts from the values and the
 * pdfmake rendering the route does — against pdfmake rendering an empty document in the same run
 * (the floor: fonts, layout engine and PDF writer with nothing to lay out). Target ≤ 500 ms.
 * Run by `npm run bench` (BENCH_ONLY=create_doc) through ts-run. Storage (one object, one row) is
 * not timed here.
 */
import { withDefaults } from '@tramita/contract'
import { placeholderTexts, renderPdf } from '../../core/server/app/services/generated_files/pdf_template.ts'
import { target } from './targets.ts'

const RUNS = Number(process.env.BENCH_DOC_RUNS ?? 20)
const FIELDS = 100

const config = withDefaults({
  form: { pages: [{ name: 'Datos', layout: Array.from({ length: FIELDS }, (_, i) => [`campo_${i}`]) }] },
  fields: Array.from({ length: FIELDS }, (_, i) =>
    i % 2 === 0
      ? { field_name: `campo_${i}`, type: 'text', data: { label: { value: `Campo ${i}` } } }
      : { field_name: `campo_${i}`, type: 'number', data: { label: { value: `Campo ${i}` } } }
  ),
})
const values = Object.fromEntries(
  config.fields.map((f, i) => [f.field_name, i % 2 === 0 ? `Texto del campo ${i} con algo más de contenido` : i * 1000])
)
/** A certificate listing every field: a title, a paragraph and a two-column table of 100 rows. */
const template = {
  pageSize: 'LETTER',
  info: { title: 'Certificado ${CODE_PROCESS}' },
  content: [
    { text: 'Certificado ${CODE_PROCESS}', fontSize: 18, bold: true, margin: [0, 0, 0, 12] },
    { text: 'Se certifica que ${campo_0} presentó la información siguiente.' },
    {
      table: {
        headerRows: 1,
        widths: ['30%', '70%'],
        body: [['Campo', 'Valor'], ...config.fields.map((f, i) => [`Campo ${i}`, `\${${f.field_name}}`])],
      },
    },
  ],
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn()
  await fn()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await fn()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

const empty = await median(() => renderPdf({ content: '' }, {}))
let pages = 0
const full = await median(async () => {
  const pdf = await renderPdf(template, placeholderTexts(config, values, 'C-2026-000123', 'es'))
  pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length
})
console.log('━━ generated documents ━━')
console.log(`pdfmake, empty document (baseline)       ${empty.toFixed(1)} ms (median of ${RUNS})`)
console.log(`create_doc, ${FIELDS}-field form (${pages} pages)     ${full.toFixed(1)} ms (median of ${RUNS})`)
console.log(`  target ≤ 500 ms: ${target(full <= 500)}; ratio to the empty document ${(full / empty).toFixed(1)}×`)
