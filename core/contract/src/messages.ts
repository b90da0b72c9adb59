/** The contract's fixed texts come from @tramita/i18n (`contract.*` keys), Spanish by default. */
import { translate } from '@tramita/i18n'
import type { ValueContext } from './registry.js'

export function contractText(ctx: ValueContext | undefined, key: string, vars?: Record<string, unknown>): string {
  return translate(ctx?.lang ?? 'es', `contract.${key}`, vars)
}
