/**
 * A plugin's web screens (framework-free: no React import, so the contract stays type-checkable
 * anywhere). The plugin's package exports `./screens`: a module whose default export is one
 * `defineWebPlugin({...})` value. runtime-web reads the enabled plugins' through the build-time module
 * `virtual:tramita-screens` (discover.ts) and mounts each screen at its path; a screen's code is a lazy
 * chunk loaded on its first visit, so no other route carries it.
 */

/** One screen: a path of the web app and the module that draws it (its default export is the component). */
export interface PluginScreen {
  /** `/documents`, `/documents/trash`, `/static/public/:token` (react-router's `:param` segments). */
  path: string
  /** A dynamic `import()` of the component's module (its default export): a chunk of its own. */
  load: () => Promise<{ default: unknown }>
  /** Open without signing in (a public link's screen); otherwise a visitor is sent to sign in. */
  public?: boolean
}

export interface WebPluginDefinition {
  screens: readonly PluginScreen[]
}

/** Plain segments, or `:name` parameters: no query, no wildcard, no other host. */
const SCREEN_PATH = /^(?:\/(?:[a-z0-9_-]+|:[a-zA-Z]\w*))+$/

/** Declares a plugin's screens; checks the paths early so a bad one fails the build with its name. */
export function defineWebPlugin(definition: WebPluginDefinition): WebPluginDefinition {
  const seen = new Set<string>()
  for (const screen of definition.screens) {
    if (!SCREEN_PATH.test(screen.path)) throw new Error(`Invalid screen path "${screen.path}"`)
    if (seen.has(screen.path)) throw new Error(`Screen path "${screen.path}" declared twice`)
    seen.add(screen.path)
  }
  return Object.freeze({ screens: Object.freeze([...definition.screens]) })
}
