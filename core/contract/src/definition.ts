import { END_STATE, INIT_STATE } from './process/schema.js'
import { withDefaults } from './defaults.js'
import {
  detectFormFormat,
  importForm,
  type ImportFormat,
  type ImportOptions,
  type Unmapped,
} from './importers/index.js'
import { DEFAULT_PAGE } from './importers/draft.js'
import { validateProcess } from './process/validate.js'
import { validateConfig, type ConfigProblem } from './validate-config.js'
import { coreRegistry } from './core-types.js'
import type { FieldTypeRegistry } from './registry.js'
import type { ActionTypeRegistry } from './actions.js'

/**
 * A form's definition (name, jsonconfig, process), its checks and how a form file is read: the
 * designer (browser), its server routes, publication and the CLI's forms:* commands share them.
 */
export interface Definition {
  name: string
  jsonconfig: unknown
  process: unknown
}

/** A form with one empty page: what a new form in the designer or `make:form` without a template starts from. */
export function emptyFormConfig() {
  return { form: { pages: [{ name: DEFAULT_PAGE, layout: [] as string[][] }] }, fields: [], elements: [] }
}

/** A form version refused: every problem of the jsonconfig and the process, each with its path. */
export class DefinitionProblems extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; '))
  }
}

/**
 * Both documents checked together: the process names the form's fields. `registries` brings the
 * plugins' field and action types (the core's alone by default).
 */
export function definitionProblems(
  jsonconfig: unknown,
  process: unknown,
  registries: { fieldTypes?: FieldTypeRegistry; actionTypes?: ActionTypeRegistry } = {}
): ConfigProblem[] {
  const fieldTypes = registries.fieldTypes ?? coreRegistry()
  const form = validateConfig(jsonconfig, fieldTypes, registries.actionTypes).map((p) => ({
    ...p,
    path: `/jsonconfig${p.path}`,
  }))
  if (form.length > 0) return form
  return validateProcess(process, withDefaults(jsonconfig, fieldTypes)).map((p) => ({
    ...p,
    path: `/process${p.path}`,
  }))
}

/**
 * The process of a form that has none yet (new in the designer, imported): each submission is a case
 * that starts and ends at once, so the form works before anyone designs its steps.
 */
export function recordOnlyProcess(label: string) {
  return {
    label,
    states: [
      { id: INIT_STATE, label: 'Iniciado', color: '#7f82ff' },
      { id: END_STATE, label: 'Finalizado', color: '#1C1066' },
    ],
    start: { step: null },
    steps: [],
  }
}

/** What a form file held, read as a definition, with what an importer could not carry. */
export interface FileDefinition {
  definition: Definition
  format: ImportFormat
  unmapped: Unmapped[]
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A form file as the CLI takes it: an exported document (`{name, jsonconfig, process}`, what
 * forms:export writes), a bare jsonconfig, a Form.io form or a SurveyJS survey (through the
 * contract's importForm, with `options.typeMap` for custom types). `format` forces one; otherwise it is
 * detected. Throws when it is none.
 */
export function definitionFromFile(
  json: unknown,
  fallbackName: string,
  format?: ImportFormat,
  options: ImportOptions = {}
): FileDefinition {
  if (isRecord(json) && 'jsonconfig' in json && (format === undefined || format === 'jsonconfig')) {
    const name = typeof json.name === 'string' && json.name.trim() ? json.name.trim() : fallbackName
    const process = json.process ?? recordOnlyProcess(name)
    return { definition: { name, jsonconfig: json.jsonconfig, process }, format: 'jsonconfig', unmapped: [] }
  }
  const chosen = format ?? detectFormFormat(json)
  if (chosen === 'jsonconfig') {
    if (!isRecord(json)) throw new Error('not a jsonconfig: the file holds no object')
    const definition = { name: fallbackName, jsonconfig: json, process: recordOnlyProcess(fallbackName) }
    return { definition, format: chosen, unmapped: [] }
  }
  const imported = importForm(json, chosen, options)
  const definition = { name: fallbackName, jsonconfig: imported.config, process: recordOnlyProcess(fallbackName) }
  return { definition, format: imported.format, unmapped: imported.unmapped }
}
