/**
 * The progress panel's list (spec 001 §2, §9): each upload and download is an item that starts, moves
 * with the bytes sent or received, finishes, and leaves 2 s after finishing. Module state with a
 * subscription, read by useTransfers (useSyncExternalStore): the screens and the panel share it.
 */
import { useSyncExternalStore } from 'react'

/** Spec 001 §9: a finished item is removed this long after it finishes. */
export const FINISHED_LINGER_MS = 2000

export interface Transfer {
  id: number
  name: string
  direction: 'up' | 'down'
  loaded: number
  total: number | null
  state: 'running' | 'done' | 'failed'
}

let items: readonly Transfer[] = []
let nextId = 1
const listeners = new Set<() => void>()

function publish(next: readonly Transfer[]) {
  items = next
  for (const listener of listeners) listener()
}

function update(id: number, patch: Partial<Transfer>) {
  publish(items.map((item) => (item.id === id ? { ...item, ...patch } : item)))
}

/** Adds an item; the handle reports progress and its end (the item then leaves after the linger). */
export function startTransfer(name: string, direction: Transfer['direction'], total: number | null) {
  const id = nextId++
  publish([...items, { id, name, direction, loaded: 0, total, state: 'running' }])
  const finish = (state: 'done' | 'failed') => {
    update(id, { state })
    setTimeout(() => publish(items.filter((item) => item.id !== id)), FINISHED_LINGER_MS)
  }
  return {
    progress: (loaded: number, total: number | null) => update(id, { loaded, ...(total !== null ? { total } : {}) }),
    done: () => finish('done'),
    failed: () => finish('failed'),
  }
}

export function subscribeTransfers(listener: () => void): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export const transfersNow = (): readonly Transfer[] => items

export function useTransfers(): readonly Transfer[] {
  return useSyncExternalStore(subscribeTransfers, transfersNow)
}
