import type { HttpContext } from '@adonisjs/core/http'
import { emptyFormConfig } from '@tramita/contract'
import { done, fail } from '#lib/envelope'
import { field, idValue, jsonField, optionalField } from '#lib/input'
import { message } from '#lib/messages'
import { formDetail, listForms, versionDocument } from '#services/process/form_catalog'
import { FORM_TEMPLATES, templateConfig } from '#services/process/form_templates'
import { createForm, DefinitionProblems, publishDraft, recordOnlyProcess, saveDraft } from '#services/process/forms'

/**
 * The designer's calls (issue 6; the spec names none): forms, their draft saved as it is designed,
 * publication of the draft as an immutable version, published versions and the templates. Callers
 * hold a designing role (routes.ts).
 */
export default class DesignerController {
  /** GET /inside/designer/forms */
  async index() {
    return done({ forms: await listForms() })
  }

  /** POST /inside/designer/forms {name, template?}: a new form with its first draft. */
  async store(ctx: HttpContext) {
    const name = field(ctx, 'name', { max: 200 }).trim()
    const templateId = optionalField(ctx, 'template', 60)
    let jsonconfig: unknown = emptyFormConfig()
    if (templateId) {
      jsonconfig = await templateConfig(templateId)
      if (!jsonconfig) fail(message(ctx, 'designer.template_unknown', { template: templateId }), 404)
    }
    const created = await createForm({ name, jsonconfig, process: recordOnlyProcess(name) }, ctx.principal!.user.id)
    return done({ id: created.formId, key: created.key })
  }

  /** GET /inside/designer/forms/:id */
  async show(ctx: HttpContext) {
    const detail = await formDetail(idValue(ctx, ctx.params.id))
    if (!detail) fail(message(ctx, 'designer.not_found'), 404)
    return done(detail)
  }

  /** PUT /inside/designer/forms/:id/draft {name, jsonconfig, process}: saved with its problems listed. */
  async saveDraft(ctx: HttpContext) {
    const formId = idValue(ctx, ctx.params.id)
    const name = field(ctx, 'name', { max: 200 }).trim()
    const jsonconfig = jsonField(ctx, 'jsonconfig', true)
    const process = jsonField(ctx, 'process', true)
    for (const [key, value] of Object.entries({ jsonconfig, process })) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        fail(message(ctx, 'engine.bad_json', { field: key }))
      }
    }
    const saved = await this.refusals(ctx, () =>
      saveDraft(formId, { name, jsonconfig, process }, ctx.principal!.user.id)
    )
    return done({ draft_updated_at: saved.updatedAt, problems: saved.problems })
  }

  /** POST /inside/designer/forms/:id/publish: the draft becomes the next version. */
  async publish(ctx: HttpContext) {
    const formId = idValue(ctx, ctx.params.id)
    const published = await this.refusals(ctx, () => publishDraft(formId, ctx.principal!.user.id))
    return done({ version: published.version })
  }

  /** GET /inside/designer/forms/:id/versions/:version */
  async version(ctx: HttpContext) {
    const found = await versionDocument(idValue(ctx, ctx.params.id), idValue(ctx, ctx.params.version, 'version'))
    if (!found) fail(message(ctx, 'designer.not_found'), 404)
    return done(found)
  }

  /** GET /inside/designer/templates */
  async templates() {
    return done({ templates: FORM_TEMPLATES.map((t) => ({ id: t.id, name: t.name })) })
  }

  /** A definition refused by the contract: `fail` with every problem at its path. */
  private async refusals<T>(ctx: HttpContext, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof DefinitionProblems)) throw error
      const missing = error.problems.length === 1 && error.problems[0]!.path === '/form_id'
      if (missing) fail(message(ctx, 'designer.not_found'), 404)
      fail(message(ctx, 'designer.invalid', { count: error.problems.length }), 400, { problems: error.problems })
    }
  }
}
