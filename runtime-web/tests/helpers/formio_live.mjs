/**
 * A live Form.io form (@formio/js 5.6.0 in jsdom), run in its own process so its browser globals stay
 * out of the test runner. Reads {form, sequences, watch} as JSON on stdin; for each sequence of
 * changes ({key, value}) it builds the form, applies each change and lets Form.io check its data
 * (conditions, logic, calculations) as it does after a change; it writes, per step, each watched
 * component's value, disabled and required state as JSON on stdout.
 */
/* global document -- jsdom's, set on globalThis below */
import { JSDOM } from 'jsdom'

const dom = new JSDOM('<!doctype html><div id="form"></div>', { pretendToBeVisual: true, url: 'http://localhost/' })
dom.window.matchMedia = () => ({ matches: false, addListener() {}, removeListener() {} })
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) {
    try {
      globalThis[key] = dom.window[key]
    } catch {
      // A read-only global of Node's: Node's own stays.
    }
  }
}
globalThis.window = dom.window
globalThis.document = dom.window.document

const { Formio } = await import('@formio/js')
let input = ''
for await (const chunk of process.stdin) input += chunk
const { form, sequences, watch } = JSON.parse(input)

const results = []
for (const sequence of sequences) {
  const element = document.createElement('div')
  document.body.append(element)
  const live = await Formio.createForm(element, structuredClone(form))
  live.checkData(live.data, {})
  const steps = []
  for (const { key, value } of sequence) {
    live.getComponent(key).setValue(value)
    live.checkData(live.data, {})
    steps.push(
      Object.fromEntries(
        watch.map((name) => {
          const component = live.getComponent(name)
          const required = component.component.validate?.required === true
          return [name, { value: live.data[name] ?? null, disabled: component.disabled, required }]
        })
      )
    )
  }
  results.push(steps)
  live.destroy()
  element.remove()
}
process.stdout.write(JSON.stringify(results))
process.exit(0)
