/**
 * An optional URL variable limited to some protocols. The stock URL rule insists on a public TLD,
 * which refuses `http://localhost` and `redis://127.0.0.1`, both normal here.
 */
export function urlVariable(protocols: string[]) {
  return (key: string, value?: string): string | undefined => {
    if (value === undefined || value === '') return undefined
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new Error(`Invalid value for "${key}": "${value}" is not a URL`)
    }
    if (!protocols.includes(url.protocol)) {
      throw new Error(`Invalid value for "${key}": expected a ${protocols.join(' or ')}// URL, got "${url.protocol}"`)
    }
    return value
  }
}
