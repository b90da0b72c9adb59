import { useSyncExternalStore } from 'react'
import { toasts, type Toast, type ToastStore } from '../lib/toasts.js'

export interface UseToasts extends Pick<ToastStore, 'push' | 'success' | 'error' | 'info' | 'dismiss'> {
  toasts: readonly Toast[]
}

/** The application's toasts and the functions that add and dismiss them. */
export function useToasts(): UseToasts {
  const list = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot)
  return {
    toasts: list,
    push: toasts.push,
    success: toasts.success,
    error: toasts.error,
    info: toasts.info,
    dismiss: toasts.dismiss,
  }
}
