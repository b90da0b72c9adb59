/**
 * A Form.io customConditional or calculateValue with statements (`var a = data.x; if (a > 3) {...}`),
 * carried whole as a script of the sandbox (it runs in QuickJS, off the page's main thread, with the
 * sandbox's time limit). Form.io runs such a script as a function body with `data` (the submission),
 * its result in `show` (true unless the script says otherwise) or `value`, a failing script or a null
 * result giving its default. The carried script rebuilds what it reads of `data` as Form.io holds it
 * (an empty number is null, select boxes an object of one true/false per option, a container's fields
 * nested under its key, a select from a URL its chosen item {value}), wraps the source
 * in the same defaults, and reads nothing else: a script that uses `row`, `instance`, `_`, `moment`
 * or any other name only Form.io provides, that reads `data` other than as data.key, writes into it,
 * or reads `value` before setting it (Form.io's current value, by the text's first mention), is
 * reported instead.
 */
import { analyzeScript } from '@tramita/sandbox'
import { itemRef, scriptRef } from './names.js'
import { formioField, formioNumber, holdsItem, itemValue } from './formio-semantics.js'
import type { DraftItem } from './types.js'

/** A `data` path: data.a, data['a'], data.container.a… (the steps are read by STEP). */
const DATA_PATH = /\bdata((?:\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*(['"])[^'"\\]*\2\s*\]))+)/g
const STEP = /\.\s*([A-Za-z_$][\w$]*)|\[\s*(['"])([^'"\\]*)\2\s*\]/g
/** `data` read any other way: data[k], data alone, or handed to a function. */
const OTHER_DATA = /\bdata\b(?!\s*(?:\.\s*[A-Za-z_$]|\[\s*['"]))/
const PATH_STEPS = String.raw`(?:\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*['"][^'"\\]*['"]\s*\]))+`
/** A data path assigned to: data.x = ..., data.c.x += ..., data.x++. */
const WRITTEN = new RegExp(String.raw`\bdata${PATH_STEPS}\s*(?:(?:[-+*/%&|^]|\*\*|<<|>>>?)?=(?!=)|\+\+|--)`)

class Refused extends Error {}

/** The sandbox's own functions, which a Form.io script cannot mean (`value` is the result's name). */
const HOST_ONLY = /(?<![\w$.])(setValue|setState|setOptions|setStyle|now|formatNumber|formatMoney|formatDate)(?![\w$])/

/** How a Form.io script reads one field: its value as Form.io's submission holds it. */
function formioValue(item: DraftItem): string {
  if (holdsItem(item)) return `(${itemValue(item).code}) === undefined ? {} : { value: ${itemRef(item)} }`
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

type Tree = Map<string, Tree | string>

/** Sets the value's code at the path; a path through a field's own value is refused. */
function place(tree: Tree, keys: string[], code: string): void {
  const [key, ...rest] = keys as [string, ...string[]]
  const here = tree.get(key)
  if (rest.length === 0) {
    if (here instanceof Map) throw new Refused(`data.${key} is read both as a field and as a container`)
    tree.set(key, code)
    return
  }
  if (typeof here === 'string') throw new Refused(`data.${key} is read both as a field and as a container`)
  const inner: Tree = here ?? new Map()
  tree.set(key, inner)
  place(inner, rest, code)
}

const literalOf = (tree: Tree): string =>
  `{ ${[...tree].map(([key, value]) => `${JSON.stringify(key)}: ${typeof value === 'string' ? value : literalOf(value)}`).join(', ')} }`

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
    // What the script reads of `data`, rebuilt as Form.io nests it (containers hold their fields' data).
    const data: Tree = new Map()
    for (const match of source.matchAll(DATA_PATH)) {
      const keys = [...match[1]!.matchAll(STEP)].map((m) => m[1] ?? m[3]!)
      let n = 1
      let item = find(keys[0]!)
      while (!item && n < keys.length) item = find(keys.slice(0, ++n).join('.'))
      if (!item) throw new Refused(`data.${keys[0]} is not a field of the form`)
      if (holdsItem(item) && keys[n] !== undefined && keys[n] !== 'value')
        throw new Refused(`data.${keys.slice(0, n).join('.')} holds the chosen item, read other than as .value`)
      if (scriptRef(item.field_name) !== item.field_name)
        throw new Refused(`the field "${item.field_name}" has no plain name`)
      place(data, keys.slice(0, n), formioValue(item))
    }
    const [start, failed, result] = RESULTS[target]
    return [`var data = ${literalOf(data)};`, start, 'try {', source, `} catch (error) { ${failed} }`, result].join(
      '\n'
    )
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message }
    throw error
  }
}
