import type { HttpContext } from '@adonisjs/core/http'
import { message } from '#lib/messages'

/** Body fields named by the users screens' own labels; any other reads as users.field.<name>, else as sent. */
const FIELD_LABELS: Record<string, string> = {
  username: 'login.user',
  password: 'login.password',
  name: 'users.name',
  areas: 'users.areas',
  roles: 'users.roles_title',
}

/** A body field as the reader knows it from the screen they filled in. */
function fieldLabel(ctx: Pick<HttpContext, 'request'>, field: string): string {
  const name = field.split('.')[0]!
  const key = FIELD_LABELS[name] ?? `users.field.${name}`
  const text = message(ctx, key)
  return text === key ? name : text
}

/**
 * VineJS's first refusal in the caller's language (its own messages are English): a missing field, or
 * a field whose value is not valid, named as the screen labels it.
 */
export function validationMessage(ctx: Pick<HttpContext, 'request'>, refusal: { field?: string; rule?: string }) {
  const field = refusal.field ? fieldLabel(ctx, refusal.field) : ''
  return message(ctx, refusal.rule === 'required' ? 'auth.field_required' : 'auth.field_invalid', { field })
}
