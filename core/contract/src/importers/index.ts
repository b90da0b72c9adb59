/**
 * Form importers: a Form.io or SurveyJS definition becomes a jsonconfig that passes validateConfig,
 * with everything it could not carry listed in `unmapped` (source path and reason), never dropped
 * silently. A jsonconfig comes back as it is.
 */
import type { FormConfigInput } from '../config.js'
import { validateConfig } from '../validate-config.js'
import { importFormio } from './formio.js'
import { importSurveyJs } from './surveyjs.js'
import { isObject, listOf, type ImportFormat, type ImportOptions, type ImportResult } from './types.js'

export { importFormio } from './formio.js'
export { importSurveyJs } from './surveyjs.js'
export { parseTypeMap, TypeMapError, type TypeMap, type TypeMapping } from './type-map.js'
export type { ImportFormat, ImportOptions, ImportResult, Unmapped } from './types.js'

/** Which format a definition is in, from the keys each one is built around; undefined when none. */
export function detectFormFormat(json: unknown): ImportFormat | undefined {
  if (!isObject(json)) return undefined
  if (isObject(json.form) && Array.isArray(json.form.pages)) return 'jsonconfig'
  if (Array.isArray(json.components)) return 'formio'
  const pages = listOf(json.pages)
  if (pages.some((page) => isObject(page) && (Array.isArray(page.elements) || Array.isArray(page.questions)))) {
    return 'surveyjs'
  }
  if (Array.isArray(json.elements) || Array.isArray(json.questions)) return 'surveyjs'
  return undefined
}

/**
 * A jsonconfig is returned as it is (a copy); its validation problems, if any, are listed in
 * `unmapped` so that an import never hides them.
 */
export function importJsonconfig(json: unknown): ImportResult {
  if (!isObject(json) || !isObject(json.form)) throw new Error('Not a jsonconfig: it has no form')
  const config = JSON.parse(JSON.stringify(json)) as FormConfigInput
  const unmapped = validateConfig(config).map((p) => ({ path: p.path, reason: `not valid: ${p.message}` }))
  return { config, unmapped, format: 'jsonconfig' }
}

/**
 * Imports a form definition, detecting its format unless `format` forces one; `options.typeMap` (a
 * mapping file read by parseTypeMap) says how to read custom types. Throws on an unknown format.
 */
export function importForm(json: unknown, format?: ImportFormat, options: ImportOptions = {}): ImportResult {
  const chosen = format ?? detectFormFormat(json)
  switch (chosen) {
    case 'jsonconfig':
      return importJsonconfig(json)
    case 'formio':
      return importFormio(json, options)
    case 'surveyjs':
      return importSurveyJs(json, options)
    default:
      throw new Error(
        'Unknown form format: expected a jsonconfig (form.pages), Form.io (components) or SurveyJS (pages)'
      )
  }
}
