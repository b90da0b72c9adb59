/** The contract's fixed texts come from @tramita/i18n (`contract.*` keys), Spanish by default. */
import { translate } from '@tramita/i18n'
import type { ValueContext } from './registry.js'
import { isCoreRole } from './rules/roles.js'

export function contractText(ctx: ValueContext | undefined, key: string, vars?: Record<string, unknown>): string {
  return translate(ctx?.lang ?? 'es', `contract.${key}`, vars)
}

/** A role as shown: the spec's four by their name in the language (`role_names.*`), any other as named. */
export function roleName(ctx: ValueContext | undefined, name: string): string {
  return isCoreRole(name) ? translate(ctx?.lang ?? 'es', `role_names.${name}`) : name
}
