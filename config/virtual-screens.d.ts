/** The enabled plugins' web screens, generated at build time (core/plugin-api/src/discover.ts). */
declare module 'virtual:tramita-screens' {
  import type { PluginScreen } from '@tramita/plugin-api/web'
  type Texts = () => Promise<{ default: Record<string, unknown> }>
  const plugins: {
    plugin: string
    screens: readonly PluginScreen[]
    /** The plugin's texts of one language, shown under `<plugin>.*`; null when it has none. */
    texts: Record<'es' | 'en' | 'zh', Texts> | null
  }[]
  export default plugins
}
