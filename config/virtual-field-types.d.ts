/** The enabled plugins' field types, generated at build time (core/plugin-api/src/discover.ts). */
declare module 'virtual:tramita-field-types' {
  import type { FieldTypeRegistry, PluginFieldTypes } from '@tramita/contract'
  const types: PluginFieldTypes[]
  export default types
  /** The core types and these: what the browser bundles render, design and check with. */
  export const registry: FieldTypeRegistry
}
