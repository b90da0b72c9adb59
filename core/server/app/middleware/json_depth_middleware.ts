import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { tooDeepField } from '#lib/json_input'
import { jsonRefusal } from '#lib/input'

/**
 * Server middleware, right after the body parser: a JSON body whose field nests deeper than the bound
 * is refused with that field's name before any route (or a recursive walk in it) sees it. Text
 * fields in form-data are held to the same bound when they are parsed (lib/input.ts jsonText).
 */
export default class JsonDepthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const name = tooDeepField(ctx.request.body())
    if (name !== null) throw jsonRefusal(ctx, name, 'too_deep')
    return next()
  }
}
