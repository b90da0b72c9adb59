/**
 * Names a script reads from the sandbox itself rather than from its variables: QuickJS's global
 * object (after the sandbox removes WeakRef and FinalizationRegistry, whose callbacks could run
 * during a later script) and the host API. A test checks this list against a live context.
 */
export const BUILTIN_GLOBALS: readonly string[] = [
  'Error',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
  'InternalError',
  'AggregateError',
  'Array',
  'Object',
  'Function',
  'Iterator',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'unescape',
  'Infinity',
  'NaN',
  'undefined',
  'eval',
  'Number',
  'Boolean',
  'String',
  'Math',
  'Reflect',
  'Symbol',
  'globalThis',
  'BigInt',
  'Date',
  'RegExp',
  'JSON',
  'Proxy',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Uint8ClampedArray',
  'Int8Array',
  'Uint8Array',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'DataView',
  'Promise',
]

/** Globals QuickJS has that the sandbox deletes before any script runs. */
export const REMOVED_GLOBALS: readonly string[] = ['WeakRef', 'FinalizationRegistry']

/** The host API every script sees. */
export const HOST_API: readonly string[] = [
  'value',
  'setValue',
  'setState',
  'setOptions',
  'setStyle',
  'now',
  'formatNumber',
  'formatMoney',
  'formatDate',
]

/**
 * The host API whose answer depends on the engine running it (its clock, time zone or Intl data): the
 * server and a browser may answer differently for the same values.
 */
export const HOST_DEPENDENT: readonly string[] = ['now', 'formatNumber', 'formatMoney', 'formatDate']

export const SANDBOX_GLOBALS: ReadonlySet<string> = new Set([...BUILTIN_GLOBALS, ...HOST_API])
