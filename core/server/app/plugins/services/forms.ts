import type { PluginForms, PluginLinkInput, PluginLinkRows, PluginPrincipal } from '@tramita/plugin-api'

/** A `links_modules` type a plugin answers (plugin-api PluginForms). */
export interface LinkModule {
  pluginId: string
  answer(input: PluginLinkInput, who: PluginPrincipal): Promise<PluginLinkRows>
}

const TYPE = /^[a-z][a-z0-9_]{1,39}$/
/** The core's own types: `select_forms` (lookups_controller.ts). */
const CORE_TYPES = new Set(['select_forms'])

/** The link module types plugins declared, each one plugin's. */
export class LinkModuleTable {
  private readonly modules = new Map<string, LinkModule>()

  formsFor(pluginId: string): PluginForms {
    return {
      linkModule: (type, answer) => {
        if (!TYPE.test(type)) throw new Error(`plugin "${pluginId}": invalid link module type "${type.slice(0, 60)}"`)
        const owner = CORE_TYPES.has(type) ? 'the core' : this.modules.get(type)?.pluginId
        if (owner) throw new Error(`plugin "${pluginId}": link module type "${type}" is ${owner}'s`)
        this.modules.set(type, { pluginId, answer })
      },
    }
  }

  of(type: string): LinkModule | undefined {
    return this.modules.get(type)
  }
}
