/** The core's and the enabled plugins' action types, generated at build time (core/plugin-api/src/discover.ts). */
declare module 'virtual:tramita-action-types' {
  import type { ActionTypeRegistry } from '@tramita/contract'
  /** What the server checks forms' steps against: the designer offers and validates with the same. */
  export const actionTypes: ActionTypeRegistry
}
