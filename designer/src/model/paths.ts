/**
 * Paths into the document: a JSON Pointer (RFC 6901, as the contract's validation reports problems,
 * e.g. `/jsonconfig/fields/3/data/ref/limit`) or the list of its keys. One notation for writing a
 * value and for flagging the problem found at it.
 */
export type Path = string | readonly (string | number)[]

/** The keys of a path; '' and '/' are the whole value. */
export function pathKeys(path: Path): string[] {
  if (typeof path !== 'string') return path.map(String)
  if (path === '' || path === '/') return []
  if (!path.startsWith('/')) throw new SyntaxError(`A JSON Pointer starts with "/": ${path}`)
  return path
    .slice(1)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** The JSON Pointer of a list of keys. */
export function toPointer(keys: readonly (string | number)[]): string {
  return keys.map((key) => '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
}

const isContainer = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** The value at a path, or undefined when any step of it is missing. */
export function getIn(root: unknown, path: Path): unknown {
  let node = root
  for (const key of pathKeys(path)) {
    if (!isContainer(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/**
 * Writes a value into a mutable tree (an immer draft), creating the objects on the way: a sparse
 * document often lacks them (`data.design.responsive` until a width is set). `undefined` removes the
 * key, so its default applies again. Array indices must exist or be the next index.
 */
export function setIn(root: Record<string, unknown>, path: Path, value: unknown): void {
  const keys = pathKeys(path)
  if (keys.length === 0) throw new RangeError('A path to a value inside the document is needed')
  let node: Record<string, unknown> = root
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    if (isContainer(next)) node = next
    else if (next !== undefined) throw new TypeError(`Cannot write inside ${JSON.stringify(next)} at "${key}"`)
    else if (Array.isArray(node)) throw new RangeError(`No index ${key} in a list of ${node.length}`)
    else node = node[key] = {}
  }
  const last = keys[keys.length - 1]!
  if (Array.isArray(node)) {
    const index = Number(last)
    if (!Number.isInteger(index) || index < 0 || index > node.length) {
      throw new RangeError(`No index ${last} in a list of ${node.length}`)
    }
    if (value === undefined) node.splice(index, 1)
    else node[index] = value
  } else if (value === undefined) {
    delete node[last]
  } else {
    node[last] = value
  }
}
