/** A call's answer for a page: loading, the data, or the refusal (an ended session included). */
import { useEffect, useState } from 'react'
import { JsonCallError } from '@tramita/web/json-call'

export type Loaded<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: JsonCallError }

export function useCall<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    setLoaded({ state: 'loading' })
    load(controller.signal).then(
      (data) => setLoaded({ state: 'done', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        const failure = error instanceof JsonCallError ? error : new JsonCallError(String(error), 0)
        setLoaded({ state: 'failed', error: failure })
      }
    )
    return () => controller.abort()
  }, deps) // the caller names what the call depends on, as for useEffect
  return loaded
}
