/**
 * Form.io's customConditional (`show = data.a === 'x';`) and calculateValue (`value = data.a * 2;`)
 * are JavaScript that reads the submission through `data`. When the script is one assignment of a
 * simple expression, `data.a` (or `data.container.a`) becomes the field's name and the expression is
 * kept (a select from a URL is read as its item's `.value`, formio-semantics.ts); anything else
 * (statements, `row`, `instance`, lodash, regular expressions) is refused with the reason.
 */
import { formioField, holdsItem, itemValue } from './formio-semantics.js'
import { opaque, type Js } from './js.js'
import { itemRef } from './names.js'
import type { DraftItem } from './types.js'

interface Token {
  kind: 'id' | 'str' | 'num' | 'punct'
  text: string
  start: number
  end: number
}

const PUNCTUATORS = [
  '===',
  '!==',
  '**=',
  '...',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '=>',
  '**',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
]
const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '**=', '&=', '|=', '^=', '++', '--', '=>'])
const STATEMENT_WORDS = new Set(
  'var let const if else for while do return function new class this delete throw try catch finally switch case import export yield await async'.split(
    ' '
  )
)
/** Globals a translated expression may still use; they mean the same in the sandbox. */
const GLOBALS = new Set(
  'true false null undefined NaN Infinity Math Number String Boolean Array JSON parseInt parseFloat isNaN isFinite typeof instanceof in void'.split(
    ' '
  )
)

/** Thrown with the reason a script cannot be translated. */
class Refused extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  const push = (kind: Token['kind'], end: number) => {
    tokens.push({ kind, text: source.slice(i, end), start: i, end })
    i = end
  }
  while (i < source.length) {
    const rest = source.slice(i)
    const ch = source[i]!
    if (/\s/.test(ch)) i++
    else if (rest.startsWith('//')) i = source.indexOf('\n', i) === -1 ? source.length : source.indexOf('\n', i)
    else if (rest.startsWith('/*')) i = source.indexOf('*/', i) === -1 ? source.length : source.indexOf('*/', i) + 2
    else if (ch === '`') throw new Refused('template strings are not translated')
    else if (ch === '"' || ch === "'") push('str', stringEnd(source, i))
    else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      push('num', i + /^(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+([eE][+-]?[0-9]+)?)/.exec(rest)![0].length)
    } else if (/[A-Za-z_$]/.test(ch)) push('id', i + /^[A-Za-z0-9_$]+/.exec(rest)![0].length)
    else push('punct', i + (PUNCTUATORS.find((p) => rest.startsWith(p)) ?? ch).length)
  }
  return tokens
}

function stringEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++
    else if (source[i] === source[start]) return i + 1
  }
  throw new Refused('a string is not closed')
}

/** One step of a `data` (or a grid's `row`) access: `.key` or `['key']`, and the token it ends at. */
function step(tokens: Token[], at: number): { key: string; last: number } | undefined {
  const next = tokens[at + 1]
  const name = tokens[at + 2]
  if ((next?.text === '.' || next?.text === '?.') && name?.kind === 'id') return { key: name.text, last: at + 2 }
  if (next?.text === '[' && name?.kind === 'str' && tokens[at + 3]?.text === ']')
    return { key: name.text.slice(1, -1), last: at + 3 }
  return undefined
}

/**
 * The field a `data` (or `row`) access reads, with the token it ends at: `data.key`, or through
 * Form.io containers, which nest their fields' data (`data.container.key`), the shortest path that
 * names a field.
 */
function dataField(
  tokens: Token[],
  at: number,
  find: (key: string) => DraftItem | undefined,
  prefix: string
): { key: string; field: DraftItem | undefined; last: number } {
  const object = tokens[at]!.text
  const first = step(tokens, at)
  if (!first) throw new Refused(`reads \`${object}\` other than as ${object}.key`)
  const keys = [first.key]
  let last = first.last
  for (;;) {
    const field = find(prefix + keys.join('.'))
    const further: ReturnType<typeof step> = field ? undefined : step(tokens, last)
    if (!further) return { key: keys.join('.'), field, last }
    keys.push(further.key)
    last = further.last
  }
}

/** Whether an operand (not an operator) is expected after this token: a '/' there starts a RegExp. */
const expectsOperand = (previous: Token | undefined) =>
  !previous || (previous.kind === 'punct' && previous.text !== ')' && previous.text !== ']')

/**
 * `target = EXPR;` as an expression over field names; a string is why it cannot be translated.
 * `find` gives the field a Form.io key names; inside a data grid's row (`rows`), `row.key` is a cell
 * of the same row, which `find` is asked for as 'row.key'.
 */
export function translateFormioScript(
  source: string,
  target: 'show' | 'value' | 'result',
  find: (key: string) => DraftItem | undefined,
  rows = false
): Js | string {
  try {
    const tokens = tokenize(source)
    if (tokens[0]?.text !== target || tokens[1]?.text !== '=') throw new Refused(`it is not one \`${target} = ...\``)
    const last = tokens[tokens.length - 1]?.text === ';' ? tokens.length - 1 : tokens.length
    const body = tokens.slice(2, last)
    if (body.length === 0) throw new Refused('the expression is empty')
    let out = ''
    let copied = body[0]!.start
    for (let i = 0; i < body.length; i++) {
      const token = body[i]!
      const previous = body[i - 1]
      if (token.kind === 'punct') {
        if (token.text === ';') throw new Refused('it has several statements')
        if (token.text === '{' || token.text === '}') throw new Refused('it has blocks or objects')
        if (ASSIGNMENTS.has(token.text)) throw new Refused(`it assigns or declares (\`${token.text}\`)`)
        if (token.text === '/' && expectsOperand(previous)) throw new Refused('regular expressions are not translated')
        continue
      }
      if (token.kind !== 'id' || previous?.text === '.' || previous?.text === '?.') continue
      if (STATEMENT_WORDS.has(token.text)) throw new Refused(`it uses \`${token.text}\``)
      if (GLOBALS.has(token.text)) continue
      const inRow = rows && token.text === 'row'
      if (token.text !== 'data' && !inRow) throw new Refused(`it reads \`${token.text}\`, which only Form.io provides`)
      const { key, field, last } = dataField(body, i, find, inRow ? 'row.' : '')
      if (!field) throw new Refused(`${token.text}.${key} is not a field of the ${inRow ? 'row' : 'form'}`)
      let end = last
      let ref = itemRef(field)
      if (holdsItem(field)) {
        const read = step(body, last)
        if (read?.key !== 'value')
          throw new Refused(`${token.text}.${key} holds the chosen item, read other than as .value`)
        ref = `(${itemValue(field).code})`
        end = read.last
      } else {
        // Select boxes are an object in Form.io: a script rebuilding it carries those (formio-script-body.ts).
        const kind = formioField(field)
        if (typeof kind === 'object' && kind.kind === 'boxes')
          throw new Refused(`${token.text}.${key} holds select boxes`)
      }
      out += source.slice(copied, token.start) + ref
      copied = body[end]!.end
      i = end
    }
    out += source.slice(copied, body[body.length - 1]!.end)
    return opaque(out.trim())
  } catch (error) {
    if (error instanceof Refused) return error.message
    throw error
  }
}
