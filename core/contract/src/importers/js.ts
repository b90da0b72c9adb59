/**
 * Writing JavaScript for show_with_formule and formule: each piece knows how tightly it binds, so the
 * output has parentheses only where JavaScript needs them (`a == "x" && b > 3`).
 */
export interface Js {
  code: string
  prec: number
  /** The logical negation when there is a nicer one than `!(...)` (== becomes !=). */
  flip?: () => Js
}

export const PREC = {
  any: 0,
  ternary: 1,
  or: 2,
  and: 3,
  equality: 4,
  relational: 5,
  additive: 6,
  multiplicative: 7,
  power: 8,
  unary: 9,
  member: 10,
} as const

const BINARY: Record<string, number> = {
  '||': PREC.or,
  '&&': PREC.and,
  '==': PREC.equality,
  '!=': PREC.equality,
  '===': PREC.equality,
  '!==': PREC.equality,
  '<': PREC.relational,
  '>': PREC.relational,
  '<=': PREC.relational,
  '>=': PREC.relational,
  '+': PREC.additive,
  '-': PREC.additive,
  '*': PREC.multiplicative,
  '/': PREC.multiplicative,
  '%': PREC.multiplicative,
  '**': PREC.power,
}

/** Each equality's negation. */
const FLIPPED: Record<string, string> = { '==': '!=', '!=': '==', '===': '!==', '!==': '===' }

/** Operators whose right operand needs no parentheses at the same level: a && (b && c) is a && b && c. */
const ASSOCIATIVE = new Set(['&&', '||'])

const wrap = (js: Js, min: number) => (js.prec < min ? `(${js.code})` : js.code)

/** A name, a call or anything else that binds tightest. */
export const atom = (code: string): Js => ({ code, prec: PREC.member })

/** Code translated from the source whose shape is not known: wrapped whenever it is combined. */
export const opaque = (code: string): Js => ({ code, prec: PREC.any })

/** A JSON literal; a negative number binds like a unary minus. */
export function literal(value: string | number | boolean | null): Js {
  if (typeof value !== 'number') return atom(JSON.stringify(value))
  return { code: String(value), prec: value < 0 ? PREC.unary : PREC.member }
}

export function binary(op: string, left: Js, right: Js): Js {
  const prec = BINARY[op]
  if (prec === undefined) throw new Error(`Unknown operator ${op}`)
  // ** is right-associative and refuses a unary operand on its left.
  const code =
    op === '**'
      ? `${wrap(left, PREC.member)} ** ${wrap(right, prec)}`
      : `${wrap(left, prec)} ${op} ${wrap(right, ASSOCIATIVE.has(op) ? prec : prec + 1)}`
  const flipped = FLIPPED[op]
  return { code, prec, flip: flipped ? () => binary(flipped, left, right) : undefined }
}

export function unary(op: '!' | '-', operand: Js): Js {
  const inner = wrap(operand, PREC.unary)
  // "--x" would be a decrement: a minus before a minus keeps its parentheses.
  const code = op === '-' && inner.startsWith('-') ? `-(${operand.code})` : `${op}${inner}`
  return { code, prec: PREC.unary, flip: op === '!' ? () => operand : undefined }
}

export const not = (js: Js): Js => (js.flip ? js.flip() : unary('!', js))

export function and(parts: Js[]): Js | undefined {
  return parts.reduce<Js | undefined>((acc, part) => (acc ? binary('&&', acc, part) : part), undefined)
}

export function or(parts: Js[]): Js | undefined {
  return parts.reduce<Js | undefined>((acc, part) => (acc ? binary('||', acc, part) : part), undefined)
}

const args = (list: Js[]) => list.map((a) => wrap(a, PREC.ternary)).join(', ')

export const call = (fn: string, list: Js[]): Js => atom(`${fn}(${args(list)})`)

/** The object of a member access: a number literal needs parentheses (`(5).x`, not `5.x`). */
const target = (js: Js) => (/^[0-9.]/.test(js.code) ? `(${js.code})` : wrap(js, PREC.member))

export const method = (of: Js, name: string, list: Js[]): Js => atom(`${target(of)}.${name}(${args(list)})`)

export const member = (of: Js, name: string): Js => atom(`${target(of)}.${name}`)

export const array = (items: Js[]): Js => atom(`[${args(items)}]`)

export function ternary(test: Js, yes: Js, no: Js): Js {
  return { code: `${wrap(test, PREC.or)} ? ${wrap(yes, PREC.ternary)} : ${wrap(no, PREC.ternary)}`, prec: PREC.ternary }
}

/** `left ?? right`: only ever used as a call argument, where it needs no parentheses. */
export const orElse = (left: Js, right: Js): Js => ({
  code: `${wrap(left, PREC.equality)} ?? ${wrap(right, PREC.equality)}`,
  prec: PREC.ternary,
})
