/**
 * A screen's data read on mount and again on `reload()` (the plugins' screens), and what a failure
 * says: the server's message (a CallError's), kept as text for a notice or a toast. A screen that shows
 * what changes by itself (an agent going offline) asks for `refreshMs`: read again that often while
 * the page is shown, and as soon as it is shown again.
 */
import { useCallback, useEffect, useRef, useState } from 'react'

/** What a failed call says (the server's `message`), for a notice or a toast. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** `load` is run on mount and on each `reload()`; the newest `load` is the one run, an old answer is dropped. */
export function useLoaded<T>(
  load: () => Promise<T>,
  { refreshMs }: { refreshMs?: number } = {}
): { value: T | null; failure: string | null; reload(): void } {
  const [value, setValue] = useState<T | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const current = useRef(load)
  current.current = load
  useEffect(() => {
    let live = true
    current.current().then(
      (loaded) => {
        if (!live) return
        setValue(loaded)
        setFailure(null)
      },
      (error: unknown) => live && setFailure(errorText(error))
    )
    return () => {
      live = false
    }
  }, [reloads])
  useEffect(() => {
    if (!refreshMs) return
    const shown = () => document.visibilityState === 'visible'
    const timer = setInterval(() => shown() && reload(), refreshMs)
    const onShown = () => shown() && reload()
    document.addEventListener('visibilitychange', onShown)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onShown)
    }
  }, [refreshMs, reload])
  return { value, failure, reload }
}
