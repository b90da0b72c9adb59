import { useEffect, useRef, useState } from 'react'
import { ONLINE_CHECK_INTERVAL_MS, probeOnline } from '../lib/online.js'

export type OnlineState = 'online' | 'offline'

/**
 * Online status: a HEAD request to the host every 30 s and whenever the window reports going online
 * or offline. `onChange` is called on each change after the first answer.
 */
export function useOnline(onChange?: (state: OnlineState) => void): OnlineState {
  const [state, setState] = useState<OnlineState>(() => (navigator.onLine === false ? 'offline' : 'online'))
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  useEffect(() => {
    let cancelled = false
    let last: OnlineState | null = null
    const check = async () => {
      const next: OnlineState = (await probeOnline()) ? 'online' : 'offline'
      if (cancelled) return
      setState(next)
      if (last !== null && last !== next) onChangeRef.current?.(next)
      last = next
    }
    void check()
    const timer = window.setInterval(check, ONLINE_CHECK_INTERVAL_MS)
    window.addEventListener('online', check)
    window.addEventListener('offline', check)
    return () => {
      cancelled = true
      window.clearInterval(timer)
      window.removeEventListener('online', check)
      window.removeEventListener('offline', check)
    }
  }, [])

  return state
}
