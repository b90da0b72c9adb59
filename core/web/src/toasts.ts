/**
 * Toast notifications as the spec has them (000 §2, §9): each toast lasts 7 s, a timer checks every
 * second, a toast fades when 1 s is left and is then removed. No React here: the store is plain and
 * its clock is injectable, so the timing is unit-tested without a DOM.
 */
export const TOAST_DURATION_MS = 7000
export const TOAST_FADE_MS = 1000
export const TOAST_TICK_MS = 1000

export type ToastType = 'success' | 'error' | 'info'
export type ToastPhase = 'shown' | 'fading' | 'gone'

export interface Toast {
  id: number
  type: ToastType
  message: string
  createdAt: number
  phase: Exclude<ToastPhase, 'gone'>
}

/** The phase of a toast created at `createdAt` (ms) when the clock reads `now` (ms). */
export function toastPhase(createdAt: number, now: number, duration = TOAST_DURATION_MS): ToastPhase {
  const left = duration - (now - createdAt)
  if (left <= 0) return 'gone'
  if (left <= TOAST_FADE_MS) return 'fading'
  return 'shown'
}

export interface Clock {
  now(): number
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

const systemClock: Clock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
}

export interface ToastStore {
  /** Adds a toast and returns its id. */
  push(type: ToastType, message: string): number
  success(message: string): number
  error(message: string): number
  info(message: string): number
  dismiss(id: number): void
  /** Applies the timing rule now (the store's timer calls it every second). */
  tick(): void
  /** The current toasts, oldest first; the same array until something changes. */
  getSnapshot(): readonly Toast[]
  subscribe(listener: () => void): () => void
}

export function createToastStore(clock: Clock = systemClock): ToastStore {
  let toasts: readonly Toast[] = []
  let nextId = 1
  let timer: unknown = null
  const listeners = new Set<() => void>()

  const emit = () => {
    for (const listener of [...listeners]) listener()
  }

  const set = (next: readonly Toast[]) => {
    toasts = next
    if (toasts.length > 0 && timer === null) {
      timer = clock.setInterval(tick, TOAST_TICK_MS)
    } else if (toasts.length === 0 && timer !== null) {
      clock.clearInterval(timer)
      timer = null
    }
    emit()
  }

  function tick() {
    const now = clock.now()
    let changed = false
    const next: Toast[] = []
    for (const toast of toasts) {
      const phase = toastPhase(toast.createdAt, now)
      if (phase === 'gone') {
        changed = true
        continue
      }
      if (phase !== toast.phase) {
        changed = true
        next.push({ ...toast, phase })
      } else {
        next.push(toast)
      }
    }
    if (changed) set(next)
  }

  const push = (type: ToastType, message: string) => {
    const id = nextId++
    set([...toasts, { id, type, message, createdAt: clock.now(), phase: 'shown' }])
    return id
  }

  return {
    push,
    success: (message) => push('success', message),
    error: (message) => push('error', message),
    info: (message) => push('info', message),
    dismiss: (id) => {
      if (toasts.some((toast) => toast.id === id)) set(toasts.filter((toast) => toast.id !== id))
    },
    tick,
    getSnapshot: () => toasts,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** The application's toasts. */
export const toasts = createToastStore()
