import type { HttpContext } from '@adonisjs/core/http'
import { bytesText, type SettingDeclaration, type SettingProblem, type SettingsDeclaration } from '@tramita/plugin-api'
import type { Language } from '@tramita/i18n'
import { done, fail } from '#lib/envelope'
import { jsonField } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import { platform } from '#services/platform'
import { currentSettings, saveSettings, SettingsRefusal } from '#plugins/services/settings'
import { isText, pluginText } from '#plugins/services/texts'

/** A text of the plugin's (`documents.settings.trashDays.label`) in a language, else `fallback`. */
function textOr(language: Language, key: string, fallback: string): string {
  return isText(key) ? pluginText(language, key) : fallback
}

/**
 * A plugin's settings as the screen shows them, in the caller's language: its title, and each
 * setting's declaration, label, help (the plugin's `<id>.settings.*` texts), options and current value.
 */
function entryOf(language: Language, id: string, declaration: SettingsDeclaration, values: Record<string, unknown>) {
  const text = (key: string, fallback: string) => textOr(language, `${id}.settings.${key}`, fallback)
  return {
    id,
    title: text('title', id),
    settings: Object.entries(declaration).map(([key, setting]) => ({
      key,
      ...setting,
      ...(setting.type === 'enum'
        ? { options: setting.options.map((value) => ({ value, label: text(`${key}.options.${value}`, value) })) }
        : {}),
      label: text(`${key}.label`, key),
      help: text(`${key}.help`, ''),
      value: values[key],
    })),
  }
}

/** A bound as a person reads it: sizes in MB or GB, days as days. */
function amount(language: Language, setting: SettingDeclaration, value: number): string {
  const unit = setting.type === 'integer' ? setting.unit : undefined
  if (unit === 'bytes') return bytesText(value, language)
  const number = new Intl.NumberFormat(language).format(value)
  return unit ? pluginText(language, `plugin_settings.amount.${unit}`, { count: value, number }) : number
}

/** One sentence per problem, naming the setting by its label in the caller's language. */
function refusalText(
  language: Language,
  pluginId: string,
  declaration: SettingsDeclaration,
  problems: SettingProblem[]
) {
  return problems
    .map((problem) => {
      const setting = Object.hasOwn(declaration, problem.key) ? declaration[problem.key] : undefined
      if (!setting || problem.reason === 'unknown')
        return pluginText(language, 'settings_refusal.unknown', { key: problem.key })
      const label = textOr(language, `${pluginId}.settings.${problem.key}.label`, problem.key)
      const say = (key: string, vars: Record<string, unknown> = {}) =>
        pluginText(language, `settings_refusal.${key}`, { label, ...vars })
      switch (problem.reason) {
        case 'type':
          return say(problem.expected)
        case 'length':
          return say('length', { max: problem.max })
        case 'option':
          return say('option', {
            options: problem.options
              .map((o) => textOr(language, `${pluginId}.settings.${problem.key}.options.${o}`, o))
              .join(', '),
          })
        case 'range': {
          const min = problem.min === undefined ? undefined : amount(language, setting, problem.min)
          const max = problem.max === undefined ? undefined : amount(language, setting, problem.max)
          return min !== undefined && max !== undefined
            ? say('between', { min, max })
            : min !== undefined
              ? say('at_least', { min })
              : say('at_most', { max })
        }
      }
    })
    .join(' ')
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The enabled plugins' settings for administrators (ADMIN_ROLES): listed with their declarations
 * (plugin-api settings.ts) and values, and changed one plugin at a time, checked and audited.
 */
export default class PluginSettingsController {
  /**
   * GET /inside/plugin_settings → `{plugins: [{id, title, settings: [{key, type, default, min?, max?,
   * unit?, maxLength?, options?, label, help, value}]}]}`, texts in the caller's language.
   */
  async index(ctx: HttpContext) {
    const language = languageOf(ctx)
    const plugins = await Promise.all(
      platform()
        .plugins.settingsDeclarations()
        .map(async ({ id, settings }) => entryOf(language, id, settings, await currentSettings(id, settings)))
    )
    return done({ plugins })
  }

  /**
   * PUT /inside/plugin_settings/:plugin, field `settings`: a JSON object of the keys to change. A key
   * not declared, a value of the wrong type or out of bounds is refused (422, every problem said, the
   * `problems` listed) and nothing is saved; a plugin that is not enabled is 404. Answers as `index`.
   */
  async update(ctx: HttpContext) {
    const id = String(ctx.params.plugin)
    const owner = platform()
      .plugins.settingsDeclarations()
      .find((p) => p.id === id)
    if (!owner) fail(message(ctx, 'settings_refusal.not_found', { plugin: id }), 404)
    const patch = jsonField(ctx, 'settings', true)
    if (!isPlainObject(patch)) fail(message(ctx, 'settings_refusal.bad_patch'), 400)
    const principal = ctx.principal!
    try {
      const saved = await saveSettings(id, owner.settings, patch, {
        userId: principal.user.id,
        impersonatorId: principal.impersonatorId,
        ip: ctx.request.ip(),
      })
      return done(entryOf(languageOf(ctx), id, owner.settings, saved.values))
    } catch (error) {
      if (!(error instanceof SettingsRefusal)) throw error
      fail(refusalText(languageOf(ctx), id, owner.settings, error.problems), 422, { problems: error.problems })
    }
  }
}
