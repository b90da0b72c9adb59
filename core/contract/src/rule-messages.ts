/**
 * The message a reader sees when a field breaks one of its rules: the designer's own
 * (data.validate.messages, read from the item as localized for the reader), else the product's.
 * The runtime and the server both ask here, so a custom message reads the same on both sides.
 */
import { contractText } from './messages.js'
import type { RuleMessage } from './schema/common.js'
import type { ValueContext } from './registry.js'

interface WithMessages {
  data: { validate?: { messages?: Partial<Record<string, unknown>> } }
}

/** The designer's message for `rule`, or undefined when none is set (blank counts as none). */
export function customMessage(item: WithMessages, rule: RuleMessage): string | undefined {
  const text = item.data.validate?.messages?.[rule]
  return typeof text === 'string' && text.trim() !== '' ? text : undefined
}

/** The designer's message for `rule`, else the product's `contract.<key>` text in the reader's language. */
export function ruleMessage(
  item: WithMessages,
  rule: RuleMessage,
  ctx: ValueContext | undefined,
  key: string,
  vars?: Record<string, unknown>
): string {
  return customMessage(item, rule) ?? contractText(ctx, key, vars)
}
