/** What every part of the form screen reads: the store, the renderers, the page's services, the device. */
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { Device } from '@tramita/contract'
import type { FormStore } from './store.js'
import type { RendererRegistry, RuntimeServices } from './types.js'

export interface FormContextValue {
  store: FormStore
  renderers: RendererRegistry
  services: RuntimeServices
  device: Device
}

export const FormContext = createContext<FormContextValue | null>(null)

export function useForm(): FormContextValue {
  const value = useContext(FormContext)
  if (!value) throw new Error('useForm outside a FormContext')
  return value
}

/** Re-renders when this field's value or state changes, and only then. */
export function useFieldTick(store: FormStore, name: string): number {
  return useSyncExternalStore(
    (listener) => store.subscribeField(name, listener),
    () => store.fieldTick(name)
  )
}

/**
 * Re-renders when what `read` returns changes (compared with Object.is), not on every change of the
 * form: a keystroke then costs the page and its bars nothing. `read` must return a primitive or a
 * value the store keeps while it is unchanged.
 */
export function useFormSnapshot<T>(store: FormStore, read: (store: FormStore) => T): T {
  return useSyncExternalStore(store.subscribe, () => read(store))
}
