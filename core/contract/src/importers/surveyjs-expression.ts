/**
 * A parser for SurveyJS expressions (visibleIf, expression questions): `{a} = 'x' and {b} > 3`,
 * `{c} contains 'y'`, `{d} notempty`, `!({e} anyof ['a', 'b'])`, `iif({f} > 1, 'x', 'y')`. Operators
 * and keywords are case-insensitive, as in SurveyJS. The result is a small tree for surveyjs-emit.
 */

export type Node =
  | { t: 'lit'; value: string | number | boolean | null }
  | { t: 'var'; name: string }
  | { t: 'array'; items: Node[] }
  | { t: 'not'; arg: Node }
  | { t: 'neg'; arg: Node }
  | { t: 'empty'; arg: Node; negate: boolean }
  | { t: 'bin'; op: string; left: Node; right: Node }
  | { t: 'call'; name: string; args: Node[] }

type Token = { k: 'var' | 'str'; v: string } | { k: 'num'; v: number } | { k: 'op' | 'word'; v: string }

export class ExpressionError extends Error {}

/** Word and symbol operators, by their canonical name. */
const OPERATORS: Record<string, string> = {
  and: 'and',
  '&&': 'and',
  or: 'or',
  '||': 'or',
  '=': '==',
  '==': '==',
  equal: '==',
  '!=': '!=',
  '<>': '!=',
  notequal: '!=',
  '<': '<',
  less: '<',
  '>': '>',
  greater: '>',
  '<=': '<=',
  lessorequal: '<=',
  '>=': '>=',
  greaterorequal: '>=',
  contains: 'contains',
  contain: 'contains',
  notcontains: 'notcontains',
  notcontain: 'notcontains',
  anyof: 'anyof',
  allof: 'allof',
  noneof: 'noneof',
  '!': 'not',
  not: 'not',
  negate: 'not',
  empty: 'empty',
  notempty: 'notempty',
}
const COMPARISON = new Set(['==', '!=', '<', '>', '<=', '>=', 'contains', 'notcontains', 'anyof', 'allof', 'noneof'])
const SYMBOLS = [
  '<>',
  '!=',
  '==',
  '<=',
  '>=',
  '&&',
  '||',
  '=',
  '<',
  '>',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '(',
  ')',
  '[',
  ']',
  ',',
]

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const rest = source.slice(i)
    const ch = source[i]!
    if (/\s/.test(ch)) {
      i++
    } else if (ch === '{') {
      const end = source.indexOf('}', i)
      if (end < 0) throw new ExpressionError('a {name} is not closed')
      tokens.push({ k: 'var', v: source.slice(i + 1, end).trim() })
      i = end + 1
    } else if (ch === "'" || ch === '"') {
      let text = ''
      let j = i + 1
      for (; j < source.length && source[j] !== ch; j++) text += source[j] === '\\' ? (source[++j] ?? '') : source[j]
      if (j >= source.length) throw new ExpressionError('a string is not closed')
      tokens.push({ k: 'str', v: text })
      i = j + 1
    } else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.test(rest)) {
      const text = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(rest)![0]
      tokens.push({ k: 'num', v: Number(text) })
      i += text.length
    } else if (/[A-Za-z_]/.test(ch)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0]
      tokens.push({ k: 'word', v: word })
      i += word.length
    } else {
      const symbol = SYMBOLS.find((s) => rest.startsWith(s))
      if (!symbol) throw new ExpressionError(`unexpected "${ch}"`)
      tokens.push({ k: 'op', v: symbol })
      i += symbol.length
    }
  }
  return tokens
}

class Parser {
  private at = 0
  constructor(private readonly tokens: Token[]) {}

  /** The canonical operator at the cursor, if the token is one. */
  private op(): string | undefined {
    const token = this.tokens[this.at]
    if (!token || (token.k !== 'op' && token.k !== 'word')) return undefined
    return OPERATORS[token.v.toLowerCase()] ?? (token.k === 'op' ? token.v : undefined)
  }

  private expect(symbol: string): void {
    const token = this.tokens[this.at]
    if (token?.k !== 'op' || token.v !== symbol) throw new ExpressionError(`expected "${symbol}"`)
    this.at++
  }

  parse(): Node {
    const node = this.or()
    if (this.at < this.tokens.length) throw new ExpressionError('unexpected text after the expression')
    return node
  }

  private or(): Node {
    let node = this.and()
    while (this.op() === 'or') {
      this.at++
      node = { t: 'bin', op: 'or', left: node, right: this.and() }
    }
    return node
  }

  private and(): Node {
    let node = this.not()
    while (this.op() === 'and') {
      this.at++
      node = { t: 'bin', op: 'and', left: node, right: this.not() }
    }
    return node
  }

  /** `!` and `not` negate the comparison that follows (`!{a} = 1` is `!({a} = 1)`). */
  private not(): Node {
    if (this.op() === 'not') {
      this.at++
      return { t: 'not', arg: this.not() }
    }
    return this.comparison()
  }

  private comparison(): Node {
    const left = this.additive()
    const op = this.op()
    if (op === 'empty' || op === 'notempty') {
      this.at++
      return { t: 'empty', arg: left, negate: op === 'notempty' }
    }
    if (op && COMPARISON.has(op)) {
      this.at++
      return { t: 'bin', op, left, right: this.additive() }
    }
    return left
  }

  private binaryLevel(ops: string[], next: () => Node): Node {
    let node = next()
    for (let op = this.op(); op && ops.includes(op); op = this.op()) {
      this.at++
      node = { t: 'bin', op, left: node, right: next() }
    }
    return node
  }

  private additive = (): Node => this.binaryLevel(['+', '-'], this.multiplicative)
  private multiplicative = (): Node => this.binaryLevel(['*', '/', '%'], this.power)
  private power = (): Node => this.binaryLevel(['^'], this.unary)

  private unary = (): Node => {
    if (this.op() === '-') {
      this.at++
      return { t: 'neg', arg: this.unary() }
    }
    if (this.op() === 'not') {
      this.at++
      return { t: 'not', arg: this.unary() }
    }
    return this.primary()
  }

  private primary(): Node {
    const token = this.tokens[this.at++]
    if (!token) throw new ExpressionError('the expression ends too early')
    if (token.k === 'var') return { t: 'var', name: token.v }
    if (token.k === 'str' || token.k === 'num') return { t: 'lit', value: token.v }
    if (token.k === 'op' && token.v === '(') {
      const node = this.or()
      this.expect(')')
      return node
    }
    if (token.k === 'op' && token.v === '[') return { t: 'array', items: this.list(']') }
    if (token.k === 'word') {
      const word = token.v.toLowerCase()
      if (word === 'true' || word === 'false') return { t: 'lit', value: word === 'true' }
      if (word === 'null' || word === 'undefined') return { t: 'lit', value: null }
      if (this.tokens[this.at]?.v === '(') {
        this.at++
        return { t: 'call', name: token.v, args: this.list(')') }
      }
    }
    throw new ExpressionError(`unexpected "${String(token.v)}"`)
  }

  private list(close: string): Node[] {
    const items: Node[] = []
    if (this.tokens[this.at]?.v === close) {
      this.at++
      return items
    }
    for (;;) {
      items.push(this.or())
      if (this.tokens[this.at]?.v === ',') this.at++
      else break
    }
    this.expect(close)
    return items
  }
}

/** The tree of a SurveyJS expression; throws ExpressionError when it does not parse. */
export function parseSurveyExpression(source: string): Node {
  return new Parser(tokenize(source)).parse()
}
