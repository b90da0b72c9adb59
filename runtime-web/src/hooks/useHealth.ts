import { useEffect, useSyncExternalStore } from 'react'
import { fetchHealth, type HealthSummary } from '../lib/health.js'

export const HEALTH_REFRESH_MS = 30_000

export interface HealthState {
  /** idle before the first answer, then ready (with a summary) or unreachable. */
  status: 'idle' | 'loading' | 'ready' | 'unreachable'
  summary: HealthSummary | null
  checkedAt: number | null
}

let state: HealthState = { status: 'idle', summary: null, checkedAt: null }
let inflight: Promise<void> | null = null
let timer: number | null = null
const listeners = new Set<() => void>()

function set(next: HealthState) {
  state = next
  for (const listener of [...listeners]) listener()
}

/** Asks the server for /health now (one request at a time, shared by every user of the hook). */
export function refreshHealth(): Promise<void> {
  if (inflight) return inflight
  set({ ...state, status: state.summary ? state.status : 'loading' })
  inflight = fetchHealth().then((summary) => {
    inflight = null
    set({ status: summary ? 'ready' : 'unreachable', summary, checkedAt: Date.now() })
  })
  return inflight
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (timer === null) timer = window.setInterval(() => void refreshHealth(), HEALTH_REFRESH_MS)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== null) {
      window.clearInterval(timer)
      timer = null
    }
  }
}

const getSnapshot = () => state

/** The shared health summary, refreshed every 30 s while something shows it. */
export function useHealth(): HealthState & { refresh: () => Promise<void> } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
  useEffect(() => {
    if (state.status === 'idle') void refreshHealth()
  }, [])
  return { ...current, refresh: refreshHealth }
}
