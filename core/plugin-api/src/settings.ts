/**
 * A plugin's settings, declared with a type and bounds (`definePlugin({ settings })`): the core lists
 * them on the administrators' settings screen, checks every change against the declaration and hands
 * the plugin plain values (`ctx.settings.get()`). Pure and framework-free: the server and the web use it.
 */

/** What an integer counts; `bytes` is shown to people in MB or GB. */
export type SettingUnit = 'bytes' | 'days' | 'hours' | 'minutes'

export interface IntegerSetting {
  type: 'integer'
  default: number
  min?: number
  max?: number
  unit?: SettingUnit
}

export interface BooleanSetting {
  type: 'boolean'
  default: boolean
}

/** A short text (at most `maxLength` characters, STRING_SETTING_MAX by default and at most). */
export interface StringSetting {
  type: 'string'
  default: string
  maxLength?: number
}

export interface EnumSetting<T extends string = string> {
  type: 'enum'
  default: T
  options: readonly T[]
}

export type SettingDeclaration = IntegerSetting | BooleanSetting | StringSetting | EnumSetting

/**
 * The declaration of a plugin's settings, by key. Labels and help are the plugin's texts
 * `<id>.settings.<key>.label` and `.help` (an enum's options: `.options.<value>`).
 */
export type SettingsDeclaration = Readonly<Record<string, SettingDeclaration>>

export type SettingValue<D extends SettingDeclaration> = D extends IntegerSetting
  ? number
  : D extends BooleanSetting
    ? boolean
    : D extends EnumSetting<infer T>
      ? T
      : string

/** The plain values of a declaration, as `ctx.settings.get()` returns them. */
export type SettingsValues<D extends SettingsDeclaration> = { -readonly [K in keyof D]: SettingValue<D[K]> }

export const STRING_SETTING_MAX = 200
const SETTING_KEY = /^[a-z][A-Za-z0-9]{0,39}$/

/** Why a value does not fit its setting. */
export type SettingProblem =
  | { key: string; reason: 'unknown' }
  | { key: string; reason: 'type'; expected: SettingDeclaration['type'] }
  | { key: string; reason: 'range'; min?: number; max?: number }
  | { key: string; reason: 'length'; max: number }
  | { key: string; reason: 'option'; options: readonly string[] }

/** The problem of `value` as the value of `setting`, or null when it fits. */
export function settingProblem(key: string, setting: SettingDeclaration, value: unknown): SettingProblem | null {
  switch (setting.type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return { key, reason: 'type', expected: 'integer' }
      if ((setting.min !== undefined && value < setting.min) || (setting.max !== undefined && value > setting.max))
        return { key, reason: 'range', min: setting.min, max: setting.max }
      return null
    case 'boolean':
      return typeof value === 'boolean' ? null : { key, reason: 'type', expected: 'boolean' }
    case 'string': {
      if (typeof value !== 'string') return { key, reason: 'type', expected: 'string' }
      const max = Math.min(setting.maxLength ?? STRING_SETTING_MAX, STRING_SETTING_MAX)
      return [...value].length > max ? { key, reason: 'length', max } : null
    }
    case 'enum':
      return typeof value === 'string' && setting.options.includes(value)
        ? null
        : { key, reason: 'option', options: setting.options }
  }
}

/**
 * A change checked against the declaration: every key declared, every value of its type and within
 * its bounds. All the problems are given, so a person can fix them at once.
 */
export function checkSettingsPatch(
  declaration: SettingsDeclaration,
  patch: Record<string, unknown>
): { ok: true } | { ok: false; problems: SettingProblem[] } {
  const problems: SettingProblem[] = []
  for (const [key, value] of Object.entries(patch)) {
    const setting = Object.hasOwn(declaration, key) ? declaration[key] : undefined
    const problem = setting ? settingProblem(key, setting, value) : { key, reason: 'unknown' as const }
    if (problem) problems.push(problem)
  }
  return problems.length ? { ok: false, problems } : { ok: true }
}

/** The declaration's defaults, as plain values. */
export function settingsDefaults<D extends SettingsDeclaration>(declaration: D): SettingsValues<D> {
  return Object.fromEntries(Object.entries(declaration).map(([key, s]) => [key, s.default])) as SettingsValues<D>
}

/**
 * The values a plugin reads: what was saved over the defaults, each saved value kept only while it
 * still fits its declaration (a key no longer declared, or a bound narrowed since, gives the default).
 */
export function settingsValues(
  declaration: SettingsDeclaration,
  saved: Readonly<Record<string, unknown>>
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(declaration).map(([key, setting]) => {
      const value = Object.hasOwn(saved, key) ? saved[key] : undefined
      return [key, value !== undefined && !settingProblem(key, setting, value) ? value : setting.default]
    })
  )
}

/** What is wrong with a declaration (definePlugin refuses it): bad keys, bounds or defaults. */
export function declarationProblems(declaration: unknown): string[] {
  if (!declaration || typeof declaration !== 'object' || Array.isArray(declaration)) return ['settings: not an object']
  const problems: string[] = []
  for (const [key, raw] of Object.entries(declaration as Record<string, unknown>)) {
    const setting = raw as SettingDeclaration
    const where = `setting "${key}"`
    if (!SETTING_KEY.test(key)) problems.push(`${where}: use a camelCase name of up to 40 letters and digits`)
    if (!setting || typeof setting !== 'object' || !['integer', 'boolean', 'string', 'enum'].includes(setting.type)) {
      problems.push(`${where}: type must be integer, boolean, string or enum`)
      continue
    }
    if (setting.type === 'integer') {
      const bounds = [setting.min, setting.max].filter((b) => b !== undefined)
      if (bounds.some((b) => !Number.isSafeInteger(b))) problems.push(`${where}: min and max must be whole numbers`)
      else if (setting.min !== undefined && setting.max !== undefined && setting.min > setting.max)
        problems.push(`${where}: min is above max`)
    }
    if (setting.type === 'string' && setting.maxLength !== undefined) {
      if (!Number.isSafeInteger(setting.maxLength) || setting.maxLength < 1 || setting.maxLength > STRING_SETTING_MAX)
        problems.push(`${where}: maxLength must be 1 to ${STRING_SETTING_MAX}`)
    }
    if (setting.type === 'enum') {
      const options = Array.isArray(setting.options) ? setting.options : []
      if (!options.length || new Set(options).size !== options.length || options.some((o) => typeof o !== 'string'))
        problems.push(`${where}: options must be distinct texts, at least one`)
    }
    if (settingProblem(key, setting, setting.default)) problems.push(`${where}: the default does not fit the setting`)
  }
  return problems
}

/** The bytes of an amount in MB or GB (binary units, as the documents screens count sizes). */
export const BYTES_PER = { MB: 1024 ** 2, GB: 1024 ** 3 } as const

/** A size in bytes as a person reads it on the settings screen: in GB from 1 GB on, else in MB. */
export function bytesShown(bytes: number): { amount: number; unit: keyof typeof BYTES_PER } {
  const unit = bytes >= BYTES_PER.GB ? 'GB' : 'MB'
  return { amount: Math.round((bytes / BYTES_PER[unit]) * 100) / 100, unit }
}

/** A size as a person reads it, in the language's digits: bytes below 1 MB, else in MB or GB ("1,5 GB"). */
export function bytesText(bytes: number, language: string): string {
  const shown = bytes > 0 && bytes < BYTES_PER.MB ? { amount: bytes, unit: 'B' } : bytesShown(bytes)
  return `${new Intl.NumberFormat(language).format(shown.amount)} ${shown.unit}`
}
