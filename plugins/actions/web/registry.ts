/**
 * The handler registry: which code runs each action type. Explicit, like the contract's registries:
 * `createActionHandlerRegistry([...coreActionHandlers, ...pluginHandlers])`; a type registered twice
 * is an error (a plugin may not replace another's handler). The documents and devices plugins add
 * theirs through their `./action-handlers` export (see plugins/actions/README.md).
 */
import type { ActionHandler, ActionHandlerRegistry, StepContext } from './types.js'

/** Declares a handler; `C` is the config as its type's schema reads it, defaults applied. */
export function defineActionHandler<C extends object = Record<string, unknown>>(spec: {
  type: string
  plugin?: string
  run(config: C, step: StepContext): void | Promise<void>
}): ActionHandler {
  return Object.freeze({
    type: spec.type,
    ...(spec.plugin ? { plugin: spec.plugin } : {}),
    run: spec.run as ActionHandler['run'],
  })
}

export function createActionHandlerRegistry(handlers: readonly ActionHandler[]): ActionHandlerRegistry {
  const byType = new Map<string, ActionHandler>()
  for (const handler of handlers) {
    if (byType.has(handler.type)) throw new Error(`The action handler "${handler.type}" is registered twice`)
    byType.set(handler.type, handler)
  }
  return Object.freeze({ get: (type: string) => byType.get(type), list: () => [...byType.values()] })
}
