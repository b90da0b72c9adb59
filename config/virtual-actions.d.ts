/** The action engine with the enabled plugins' handlers, generated at build time (core/plugin-api/src/discover.ts). */
declare module 'virtual:tramita-actions' {
  import type { ActionTypeRegistry } from '@tramita/contract'
  import type { ActionHandlerRegistry } from '@tramita/plugin-actions/web'
  /** null when the actions plugin is not enabled: forms then run no actions. */
  export const actions: {
    engine: typeof import('@tramita/plugin-actions/web')
    handlers: ActionHandlerRegistry
    types: ActionTypeRegistry
    /** The handlers' plugins' texts, one loader per language (their keys are under `<plugin>.`). */
    texts: {
      plugin: string
      load: Record<'es' | 'en' | 'zh', () => Promise<{ default: Record<string, unknown> }>>
    }[]
  } | null
}
