/**
 * The code that runs inside QuickJS once per runtime, before any script. It installs the host API,
 * removes what could outlive a script, freezes every intrinsic and globalThis, and returns the
 * functions the host calls: `start(input)` runs a batch, `resume()` continues it after the host has
 * run promise jobs, `abort()` gives what finished after the host stopped it. Its state (compiled
 * scripts, the current call) lives only in this closure.
 *
 * Input: {"d":[ids to forget after the batch],"c":[[id,text,params]...],"s":shared vars,"n":now,"k":[[id,own vars]...]}
 * Output: the JSON of the batch's results, or '' when the current call returned a promise and the
 * host must run jobs and call `resume()`.
 */
import { HOST_API, REMOVED_GLOBALS } from './globals.ts'
import { MESSAGES, variableNotFound } from './errors.ts'

export const KERNEL_SOURCE = `(function (hostCall, hostNames) {
'use strict'
const g = globalThis
const O = Object
const { freeze, isFrozen, getPrototypeOf, getOwnPropertyDescriptor, defineProperty, hasOwn } = O
const { ownKeys, apply } = Reflect
const { parse, stringify } = JSON
const P = Promise
const promiseResolve = P.resolve.bind(P)
const promiseThen = P.prototype.then
const indirectEval = g.eval
const InternalErr = g.InternalError
const ErrorCtor = Error
const MSG = ${JSON.stringify(MESSAGES)}
const NOT_FOUND = ${JSON.stringify(variableNotFound('\0').split('\0'))}
const MISSING = {}
const compiled = new Map()

// The call being evaluated: its own vars, the batch's shared vars, its effects (JSON strings).
let own = null, shared = null, effects = null, active = false, nowValue = 0
let calls = null, index = 0, out = null, waiting = null, forget = null

function lookup(name) {
  if (own !== null && hasOwn(own, name)) return own[name]
  if (shared !== null && hasOwn(shared, name)) return shared[name]
  return MISSING
}
// Variables are frozen on first use: one call cannot change what the next one in the batch reads.
function harden(v) {
  if (typeof v !== 'object' || v === null || isFrozen(v)) return v
  freeze(v)
  for (const k of O.keys(v)) harden(v[k])
  return v
}
function checkJson(key, v) {
  const t = typeof v
  if (t === 'function' || t === 'symbol') throw new TypeError(MSG.notJson + ' (a ' + t + ')')
  return v
}
function toJson(v) {
  if (v === undefined) return 'null'
  const t = typeof v
  if (t === 'object' && v !== null) return stringify(v, checkJson)
  return stringify(checkJson('', v))
}
function describe(e) {
  try {
    if (e instanceof ErrorCtor) {
      const m = e.message
      // value('x') throws ReferenceError("variable 'x' not found"): reported bare, like a missing name.
      if (e instanceof ReferenceError && m.startsWith(NOT_FOUND[0]) && m.endsWith(NOT_FOUND[1])) return m
      return e.name + ': ' + m
    }
    return 'uncaught ' + (typeof e === 'string' ? e : toJson(e))
  } catch {
    return 'uncaught ' + typeof e
  }
}
function failure(code, message) {
  return '{"ok":false,"error":{"code":"' + code + '","message":' + stringify(message) + '}}'
}
function thrown(e) {
  if (e instanceof InternalErr && e.message === 'interrupted') return failure('SCRIPT_TIMEOUT', MSG.timeout)
  if (e instanceof InternalErr && e.message === 'out of memory') return failure('SCRIPT_MEMORY', MSG.memory)
  if (e instanceof InternalErr && e.message === 'stack overflow') return failure('SCRIPT_ERROR', MSG.stack)
  return failure('SCRIPT_ERROR', describe(e))
}
function success(v) {
  try {
    return '{"ok":true,"value":' + toJson(v) + ',"effects":[' + (effects === null ? '' : effects.join(',')) + ']}'
  } catch (e) {
    return thrown(e)
  }
}

// ── host API ──
function current(what) {
  if (!active) throw new TypeError(what + '() ' + MSG.inactive)
}
function fieldName(name, what) {
  current(what)
  if (typeof name !== 'string' || name === '') throw new TypeError(what + '(): ' + MSG.fieldName)
  return name
}
function effect(op, name, key, json) {
  const e = '{"op":"' + op + '","field":' + stringify(name) + ',"' + key + '":' + json + '}'
  if (effects === null) effects = [e]
  else effects.push(e)
}
const NATURAL = ['enabled', 'disabled', 'readonly']
const api = {
  value(name) {
    current('value')
    const v = lookup(String(name))
    if (v !== MISSING) return harden(v)
    throw new ReferenceError(NOT_FOUND[0] + String(name) + NOT_FOUND[1])
  },
  setValue(name, v) {
    effect('setValue', fieldName(name, 'setValue'), 'value', toJson(v))
  },
  setState(name, state) {
    const field = fieldName(name, 'setState')
    if (typeof state !== 'object' || state === null) throw new TypeError('setState(): ' + MSG.state)
    const clean = {}
    if (state.natural !== undefined) {
      if (!NATURAL.includes(state.natural)) throw new TypeError('setState(): ' + MSG.natural)
      clean.natural = state.natural
    }
    for (const k of ['see', 'show', 'required']) {
      if (state[k] === undefined) continue
      if (typeof state[k] !== 'boolean') throw new TypeError('setState(): ' + k + ' ' + MSG.boolean)
      clean[k] = state[k]
    }
    effect('setState', field, 'state', stringify(clean))
  },
  setOptions(name, options) {
    effect('setOptions', fieldName(name, 'setOptions'), 'options', toJson(options))
  },
  setStyle(name, style) {
    effect('setStyle', fieldName(name, 'setStyle'), 'style', toJson(style))
  },
  now() {
    current('now')
    return nowValue
  },
}
function hostFunction(name) {
  return {
    [name](...args) {
      current(name)
      const answer = parse(hostCall(name, toJson(args)))
      if (hasOwn(answer, 'e')) throw new ErrorCtor(name + '(): ' + answer.e)
      return answer.v
    },
  }[name]
}
for (const name of ${JSON.stringify(HOST_API)}) {
  if (!hasOwn(api, name)) api[name] = hostFunction(name)
}
for (const name of hostNames) api[name] = hostFunction(name)
for (const name of ${JSON.stringify(REMOVED_GLOBALS)}) delete g[name]
for (const name of ownKeys(api)) {
  defineProperty(g, name, { value: api[name], writable: false, enumerable: false, configurable: false })
}

// ── freeze every intrinsic reachable from globalThis or from objects the language creates ──
const seen = new Set()
function deepFreeze(root) {
  const stack = [root]
  while (stack.length) {
    const o = stack.pop()
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) continue
    seen.add(o)
    freeze(o)
    stack.push(getPrototypeOf(o))
    for (const k of ownKeys(o)) {
      const d = getOwnPropertyDescriptor(o, k)
      stack.push(d.value, d.get, d.set)
    }
  }
}
const hidden = [
  [][Symbol.iterator](),
  new Map()[Symbol.iterator](),
  new Set()[Symbol.iterator](),
  ''[Symbol.iterator](),
  /a/[Symbol.matchAll](''),
  [].values().map((x) => x),
  Iterator.from({ next() { return { done: true } } }),
  function* () {},
  (function* () {})(),
  async function () {},
  async function* () {},
  (async function* () {})(),
  async () => {},
  P.resolve(),
]
for (const o of hidden) deepFreeze(o)
deepFreeze(g)

// ── batches ──
function compile(id, text, params) {
  try {
    compiled.set(id, { fn: indirectEval(text), params, error: null })
  } catch (e) {
    compiled.set(id, { fn: null, params, error: describe(e) })
  }
}
function call(entry, ownVars) {
  own = ownVars
  effects = null
  active = true
  const params = entry.params
  const args = new Array(params.length)
  for (let i = 0; i < params.length; i++) {
    const v = lookup(params[i])
    if (v === MISSING) return failure('SCRIPT_ERROR', NOT_FOUND[0] + params[i] + NOT_FOUND[1])
    args[i] = harden(v)
  }
  let r
  try {
    r = apply(entry.fn, undefined, args)
  } catch (e) {
    return thrown(e)
  }
  if ((typeof r === 'object' || typeof r === 'function') && r !== null) {
    let then
    try {
      then = r.then
    } catch (e) {
      return thrown(e)
    }
    if (typeof then === 'function') {
      const state = { done: false, ok: false, value: undefined }
      waiting = state
      apply(promiseThen, promiseResolve(r), [
        (v) => { state.done = true; state.ok = true; state.value = v },
        (e) => { state.done = true; state.value = e },
      ])
      return ''
    }
  }
  return success(r)
}
function settle() {
  const s = waiting
  waiting = null
  if (!s.done) return failure('SCRIPT_ERROR', MSG.neverSettled)
  return s.ok ? success(s.value) : thrown(s.value)
}
function loop() {
  while (index < calls.length) {
    const item = calls[index]
    const entry = compiled.get(item[0])
    const r =
      entry === undefined
        ? failure('SCRIPT_ERROR', MSG.crashed)
        : entry.error !== null
          ? failure('SCRIPT_ERROR', entry.error)
          : call(entry, item[1])
    if (r === '') return ''
    out.push(r)
    index++
  }
  const result = '[' + out.join(',') + ']'
  reset()
  return result
}
function reset() {
  if (forget !== null) for (const id of forget) compiled.delete(id)
  own = shared = effects = calls = out = waiting = forget = null
  active = false
}
return freeze({
  start(input) {
    const p = parse(input)
    forget = p.d
    for (const c of p.c) compile(c[0], c[1], c[2])
    shared = p.s
    nowValue = p.n
    calls = p.k
    index = 0
    out = []
    return loop()
  },
  resume() {
    out.push(settle())
    index++
    return loop()
  },
  // After the host stopped a batch (deadline, memory): the results that were finished.
  abort() {
    const done = out === null ? '[]' : '[' + out.join(',') + ']'
    reset()
    return done
  },
})
})`
