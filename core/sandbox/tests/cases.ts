/**
 * Hostile scripts as data, run the same way in Node (in process and in the worker pool) and in
 * Chromium (in a Web Worker and in the page). After each, `1 + 1` must still give 2.
 */
import type { Json, ScriptErrorCode, ScriptResult, ScriptRunner } from '../src/index.ts'

export interface AttackCase {
  name: string
  source: string
  vars?: Record<string, Json>
  timeoutMs?: number
  expect: { ok: true; value: Json; effects?: number } | { ok: false; code: ScriptErrorCode[]; message?: RegExp }
  /** A script run next on the same sandbox, and what it must give (nothing left behind). */
  next?: { source: string; value: Json }
  /** Native work QuickJS's interrupt does not reach: only a watchdog ends it quickly. */
  needsWatchdog?: boolean
}

const fails = (code: ScriptErrorCode | ScriptErrorCode[], message?: RegExp) =>
  ({ ok: false, code: Array.isArray(code) ? code : [code], message }) as const

export const CASES: AttackCase[] = [
  { name: 'an endless loop', source: 'while (true) {}', timeoutMs: 100, expect: fails('SCRIPT_TIMEOUT') },
  {
    name: 'an allocation bomb',
    source: 'let a = []; while (true) a.push(new Array(1e5).fill(1))',
    timeoutMs: 5000, // memory, not the clock, must be what stops it
    expect: fails('SCRIPT_MEMORY'),
  },
  { name: 'one huge allocation', source: 'new Uint8Array(1e9)', expect: fails('SCRIPT_MEMORY') },
  {
    name: 'deep recursion',
    source: 'function f() { return f() } f()',
    expect: fails('SCRIPT_ERROR', /stack overflow/),
  },
  {
    name: 'recursion through toString',
    source: 'const o = { toString() { return String(this) } }; String(o)',
    expect: fails('SCRIPT_ERROR', /stack overflow/),
  },
  {
    name: 'recursion through a Proxy trap',
    source: 'const p = new Proxy({}, { get: (t, k, r) => r[k] }); p.x',
    expect: fails('SCRIPT_ERROR', /stack overflow/),
  },
  {
    name: 'a native loop over a billion holes',
    source: "new Array(1e9) + ''",
    expect: fails(['SCRIPT_MEMORY', 'SCRIPT_TIMEOUT']),
    needsWatchdog: true,
  },
  {
    name: 'a promise that never settles',
    source: 'new Promise(() => {})',
    expect: fails('SCRIPT_ERROR', /never settled/),
  },
  {
    name: 'an endless chain of promise jobs',
    source: '(async () => { for (;;) await null })()',
    expect: fails('SCRIPT_TIMEOUT'),
  },
  {
    name: 'the constructor chain to process',
    source: "this.constructor.constructor('return process')()",
    expect: fails('SCRIPT_ERROR'),
  },
  {
    name: 'Function to the global object',
    source: "typeof Function('return this')().process",
    expect: { ok: true, value: 'undefined' },
  },
  {
    name: 'a function constructor asking for process',
    source: "(function () {}).constructor('return process')()",
    expect: fails('SCRIPT_ERROR', /process/),
  },
  { name: "require('fs')", source: "require('fs')", expect: fails('SCRIPT_ERROR', /require/) },
  { name: "import('fs')", source: "import('fs')", expect: fails('SCRIPT_ERROR', /fs/) },
  { name: 'fetch', source: "fetch('http://x')", expect: fails('SCRIPT_ERROR', /fetch/) },
  {
    name: 'polluting Object.prototype',
    source: 'Object.prototype.polluted = 1',
    expect: fails('SCRIPT_ERROR'),
    next: { source: '({}).polluted === undefined', value: true },
  },
  {
    name: 'polluting Object.prototype through __proto__',
    source: '({}).__proto__.polluted = 1',
    expect: fails('SCRIPT_ERROR'),
    next: { source: "'polluted' in {}", value: false },
  },
  {
    name: 'replacing Array.prototype.push',
    source: "Array.prototype.push = function () { return 'hacked' }",
    expect: fails('SCRIPT_ERROR'),
    next: { source: '[].push(1)', value: 1 },
  },
  {
    name: 'defining a global',
    source: 'globalThis.leak = 1',
    expect: fails('SCRIPT_ERROR'),
    next: { source: 'typeof globalThis.leak', value: 'undefined' },
  },
  {
    name: 'replacing a host function',
    source: 'setValue = () => {}',
    expect: fails('SCRIPT_ERROR'),
    next: { source: "setValue('a', 1); return typeof setValue", value: 'function' },
  },
  {
    name: 'a finalization callback for a later script',
    source: 'new FinalizationRegistry(() => {})',
    expect: fails('SCRIPT_ERROR', /FinalizationRegistry/),
  },
  {
    name: 'an effect from a job nobody awaits',
    source: "Promise.resolve().then(() => setValue('late', 1)); return 1",
    expect: { ok: true, value: 1, effects: 0 },
  },
  {
    name: 'changing a variable it was given',
    source: 'lista.push(4); return lista',
    vars: { lista: [1, 2, 3] },
    expect: fails('SCRIPT_ERROR'),
  },
  { name: 'a result that is a function', source: '() => 1', expect: fails('SCRIPT_ERROR', /not JSON/) },
  { name: 'a cyclic result', source: 'const o = {}; o.o = o; return o', expect: fails('SCRIPT_ERROR') },
  { name: 'eval inside the sandbox', source: "eval('1 + 1')", expect: { ok: true, value: 2 } },
]

/** Why `result` does not meet the case's expectation, or null when it does. */
export function mismatch(c: AttackCase, result: ScriptResult): string | null {
  const got = JSON.stringify(result)
  if (c.expect.ok) {
    if (!result.ok) return `expected ${JSON.stringify(c.expect.value)}, got ${got}`
    if (JSON.stringify(result.value) !== JSON.stringify(c.expect.value)) return `wrong value: ${got}`
    if (c.expect.effects !== undefined && result.effects.length !== c.expect.effects) return `wrong effects: ${got}`
    return null
  }
  if (result.ok) return `expected ${c.expect.code.join(' or ')}, got ${got}`
  if (!c.expect.code.includes(result.error.code)) return `expected ${c.expect.code.join(' or ')}, got ${got}`
  if (c.expect.message && !c.expect.message.test(result.error.message)) return `message ${got} !~ ${c.expect.message}`
  return null
}

export const HEALTH_CHECK = { source: '1 + 1', value: 2 }

/** Runs a case, its follow-up and `1 + 1` on the same runner; returns what went wrong, if anything. */
export async function attack(runner: ScriptRunner, c: AttackCase): Promise<{ problems: string[]; ms: number }> {
  const problems: string[] = []
  const started = performance.now()
  const result = await runner.run(c.source, c.vars, { timeoutMs: c.timeoutMs })
  const ms = performance.now() - started
  const wrong = mismatch(c, result)
  if (wrong) problems.push(wrong)
  if (c.next) {
    const next = await runner.run(c.next.source)
    if (!next.ok || JSON.stringify(next.value) !== JSON.stringify(c.next.value)) {
      problems.push(`left something behind: ${c.next.source} gave ${JSON.stringify(next)}`)
    }
  }
  const health = await runner.run(HEALTH_CHECK.source)
  if (!health.ok || health.value !== HEALTH_CHECK.value)
    problems.push(`1 + 1 afterwards gave ${JSON.stringify(health)}`)
  if (({} as Record<string, unknown>).polluted !== undefined) problems.push("the host's Object.prototype changed")
  return { problems, ms }
}
