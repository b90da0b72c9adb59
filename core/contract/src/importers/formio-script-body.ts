/**
 * A Form.io customConditional or calculateValue with statements (`var a = data.x; if (a > 3) {...}`),
 * carried whole as a script of the sandbox (it runs in QuickJS, off the page's main thread, with the
 * sandbox's time limit). Form.io runs such a script as a function body with `data` (the submission),
 * its result in `show` (true unless the script says otherwise) or `value`, a failing script or a null
 * result giving its default. The carried script rebuilds what it reads of `data` as Form.io holds it
 * (an empty number is null, select boxes an object of one true/false per option), wraps the source
 * in the same defaults, and reads nothing else: a script that uses `row`, `instance`, `_`, `moment`
 * or any other name only Form.io provides, that reads `data` other than as data.key, writes into it,
 * or reads `value` before setting it (Form.io's current value, by the text's first mention), is
 * reported instead.
 */
import { analyzeScript } from '@tramita/sandbox'
import { scriptRef } from './names.js'
import { formioField, formioNumber } from './formio-semantics.js'
import type { DraftItem } from './types.js'

const DATA_KEY = /\bdata\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(['"])([^'"\\]*)\2\s*\])/g
/** `data` read any other way: data[k], data alone, or handed to a function. */
const OTHER_DATA = /\bdata\b(?!\s*(?:\.\s*[A-Za-z_$]|\[\s*['"]))/
/** A data key assigned to: data.x = ..., data.x += ..., data.x++. */
const WRITTEN =
  /\bdata\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*['"][^'"\\]*['"]\s*\])\s*(?:[-+*/%&|^]|\*\*|<<|>>>?)?=(?!=)|\bdata\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*['"][^'"\\]*['"]\s*\])\s*(?:\+\+|--)/

class Refused extends Error {}

/** The sandbox's own functions, which a Form.io script cannot mean (`value` is the result's name). */
const HOST_ONLY = /(?<![\w$.])(setValue|setState|setOptions|setStyle|now|formatNumber|formatMoney|formatDate)(?![\w$])/

/** How a Form.io script reads one field: its value as Form.io's submission holds it. */
function formioValue(item: DraftItem): string {
  const field = formioField(item)
  if (typeof field === 'string') throw new Refused(field)
  const ref = field.js.code
  switch (field.kind) {
    case 'number':
      return formioNumber(field).code
    case 'boxes':
      return `{ ${field.options.map((id) => `${JSON.stringify(id)}: ${ref}.includes(${JSON.stringify(id)})`).join(', ')} }`
    default:
      return ref
  }
}

/**
 * How Form.io runs each kind of script: the variable's start, what a failure leaves in it, and the
 * result (a condition's null is its default: true for a customConditional, false for a logic trigger).
 */
const RESULTS = {
  show: ['var show = true;', 'show = null;', 'return show === null ? true : !!show;'],
  result: ['var result = true;', 'result = null;', 'return result === null ? false : !!result;'],
  value: ['var value;', 'value = null;', 'return value === undefined ? null : value;'],
} as const

/** The carried script, or why the source is not carried. `find` gives the field a Form.io key names. */
export function formioScriptBody(
  source: string,
  target: keyof typeof RESULTS,
  find: (key: string) => DraftItem | undefined
): string | { refused: string } {
  try {
    const analyzed = analyzeScript(source)
    if (analyzed.error) throw new Refused(`it does not parse (${analyzed.error})`)
    const foreign = analyzed.names.filter((name) => name !== 'data' && name !== target)
    if (foreign.length > 0) throw new Refused(`it reads \`${foreign[0]}\`, which only Form.io provides`)
    const host = HOST_ONLY.exec(source)
    if (host) throw new Refused(`it uses \`${host[1]}\`, which Form.io does not provide`)
    if (target !== 'value' && /(?<![\w$.])value(?![\w$])/.test(source))
      throw new Refused('it reads `value`, which a Form.io condition does not have')
    const first = /(?<![\w$.])value(?![\w$])\s*(=(?!=))?/.exec(source)
    if (target === 'value' && first && !first[1]) throw new Refused("it reads the field's own value before setting it")
    if (WRITTEN.test(source)) throw new Refused('it writes into `data`')
    if (OTHER_DATA.test(source)) throw new Refused('it reads `data` other than as data.key')
    const entries = new Map<string, string>()
    for (const match of source.matchAll(DATA_KEY)) {
      const key = match[1] ?? match[3]!
      if (entries.has(key)) continue
      const item = find(key)
      if (!item) throw new Refused(`data.${key} is not a field of the form`)
      if (scriptRef(item.field_name) !== item.field_name)
        throw new Refused(`the field "${item.field_name}" has no plain name`)
      entries.set(key, formioValue(item))
    }
    const data = [...entries].map(([key, value]) => `${JSON.stringify(key)}: ${value}`).join(', ')
    const [start, failed, result] = RESULTS[target]
    return [`var data = { ${data} };`, start, 'try {', source, `} catch (error) { ${failed} }`, result].join('\n')
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message }
    throw error
  }
}
