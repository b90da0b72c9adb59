/**
 * `register` only declares (routes, schedules): a data service called there would run before the
 * database, queue and other plugins are ready, so it throws and the plugin is marked failed.
 */
export type Readiness = () => boolean

export class NotReadyError extends Error {
  constructor(pluginId: string, service: string) {
    super(`plugin "${pluginId}": ctx.${service} is not ready in register (register only declares; use it from boot on)`)
    this.name = 'NotReadyError'
  }
}

/** The service with each of its methods checking readiness first; plain values (db.dialect) pass. */
export function whenReady<T extends object>(pluginId: string, name: string, ready: Readiness, service: T): T {
  return new Proxy(service, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (!ready()) throw new NotReadyError(pluginId, `${name}.${String(property)}`)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}
