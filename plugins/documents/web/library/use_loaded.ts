/** A screen's data read on mount and again on `reload()`; a failure to read is kept as text for a notice. */
import { useCallback, useEffect, useRef, useState } from 'react'
import { errorText } from './format.js'

export function useLoaded<T>(load: () => Promise<T>): { value: T | null; failure: string | null; reload(): void } {
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
  return { value, failure, reload }
}
