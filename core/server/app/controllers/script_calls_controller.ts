import type { HttpContext } from '@adonisjs/core/http'
import type { Json } from '@tramita/sandbox'
import { done, fail } from '#lib/envelope'
import { field, jsonField } from '#lib/input'
import { message } from '#lib/messages'
import { limitPerMinute } from '#services/auth/throttle'
import { isAdmin } from '#services/auth/principal'
import { scriptRunner } from '#services/scripts'

/** Longest script accepted (characters). */
export const MAX_SCRIPT_CHARS = 20_000
/** Calls per minute per user (SCRIPT_CALLS_PER_MINUTE overrides it). */
export const SCRIPT_CALLS_PER_MINUTE = Number(process.env.SCRIPT_CALLS_PER_MINUTE) || 20
/**
 * A server script's deadline. Short, since a runaway holds one of the pool's two workers (which also
 * run forms' rules on every save) until it; the watchdog ends a worker stuck past it.
 */
export const SCRIPT_TIMEOUT_MS = 200

/**
 * POST /inside/forms/create/search_endpoint/ejecutar_exe (spec 000 §7, 001 §7): the execute_script
 * action's server side. The spec's call runs a Python script; here the script is JavaScript, run in
 * the server's QuickJS pool (worker threads, memory and time limits, watchdog), never in Node itself.
 *
 * Who may: superusers and supervisors only, as they may already write forms' scripts in the designer;
 * a script from anyone else is refused, since a form's author cannot vouch for what a filler posts.
 * Rate-limited per user. `values` (JSON object, optional) are the script's variables. The answer is
 * `{value, effects}`: what the script returned and what it asked the form to do (setValue, ...),
 * applied by the browser like a client script's. Bad input, a failing script and a timeout answer
 * `status: 'fail'` with a message, never a 500.
 */
export default class ScriptCallsController {
  async execute(ctx: HttpContext) {
    const principal = ctx.principal!
    if (!isAdmin(principal)) fail(message(ctx, 'script_call.forbidden'), 403)
    await limitPerMinute(
      `script_call:${principal.user.id}`,
      SCRIPT_CALLS_PER_MINUTE,
      message(ctx, 'auth.too_many_requests')
    )
    const source = field(ctx, 'data_text', { max: MAX_SCRIPT_CHARS })
    const values = jsonField(ctx, 'values', false) ?? {}
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      fail(message(ctx, 'auth.field_invalid', { field: 'values' }))
    }
    const result = await scriptRunner().run(source, values as Record<string, Json>, { timeoutMs: SCRIPT_TIMEOUT_MS })
    if (!result.ok) {
      if (result.error.code === 'SCRIPT_TIMEOUT')
        fail(message(ctx, 'script_call.timeout', { ms: SCRIPT_TIMEOUT_MS }), 422)
      fail(message(ctx, 'script_call.failed', { message: result.error.message.slice(0, 300) }), 422)
    }
    return done({ value: result.value, effects: result.effects })
  }
}
