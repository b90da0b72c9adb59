/**
 * The action-type registry (spec 000 §4 "Action types", 001 §4): what each step of an action
 * definition (validations.actions[].actions[]) may be, and the schema of its `config`, defaults
 * annotated as everywhere else. The designer builds a step's editor from the schema, validateConfig
 * checks every step against it, the action engine (plugins/actions) reads configs with their defaults.
 *
 * Registries are explicit values: `createActionTypeRegistry([...coreActionTypes, ...pluginActionTypes])`;
 * a type registered twice is an error. The devices plugin brings scan_document and print_document,
 * the documents plugin the document-folder types; they are not core types.
 *
 * Keys that name something of the form carry a `description` marker (like the contract's Script), so
 * an editor knows a field, an action or a page is wanted and validation checks that it exists.
 */
import type { Static, TObject, TProperties, TSchema } from '@sinclair/typebox'
import * as Type from './schema/type.js'
import { Script } from './schema/common.js'
import { ChoiceOption } from './types/choice.js'
import { defaultsApplier } from './compiled-defaults.js'

/** The `description` of a key that holds a field's name (field_name of this form). */
export const FIELD_NAME_REF = 'The name of a field of this form'
/** The `description` of a key that holds an action's name (validations.actions[].name). */
export const ACTION_NAME_REF = 'The name of an action of this form'
/** The `description` of a key that holds a page: an index in form.pages or a page's name. */
export const PAGE_REF = 'A page of this form: its index or its name'

/** A field of this form, by name (required: a step acting on no field means nothing). */
export const FieldNameRef = Type.String({ minLength: 1, description: FIELD_NAME_REF })
/** Several fields of this form, at least one. */
export const FieldNamesRef = Type.Array(FieldNameRef, { minItems: 1 })
export const ActionNameRef = Type.String({ minLength: 1, description: ACTION_NAME_REF })
export const PageRef = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 1 })], {
  default: 0,
  description: PAGE_REF,
})

/** What a key of a config refers to, read from its schema's marker. */
export type ConfigRole = 'field' | 'fields' | 'action' | 'page' | 'script'

export function configRole(schema: TSchema): ConfigRole | undefined {
  const marker = (s: TSchema | undefined) => s?.description as string | undefined
  if (marker(schema) === FIELD_NAME_REF) return 'field'
  if (schema.type === 'array' && marker(schema.items as TSchema) === FIELD_NAME_REF) return 'fields'
  if (marker(schema) === ACTION_NAME_REF) return 'action'
  if (marker(schema) === PAGE_REF) return 'page'
  if (marker(schema) === Script.description) return 'script'
  return undefined
}

/** Each config key of a type with what it refers to (undefined: a plain value). */
export function configRoles(actionType: ActionType): Record<string, ConfigRole | undefined> {
  const properties = actionType.schema.properties as Record<string, TSchema>
  return Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, configRole(schema)]))
}

export interface ActionTypeSpec<C extends TProperties> {
  type: string
  /** The keys of `config`, each with its default or required (no default). */
  config: C
  /** The plugin that brings the type (absent for core types). */
  plugin?: string
}

export interface ActionType {
  readonly type: string
  /** JSON Schema (TypeBox) of the step's `config`, unknown keys refused, defaults annotated. */
  readonly schema: TObject
  readonly plugin?: string
}

/** A config as its type's schema reads it, defaults applied. */
export type ActionConfigOf<C extends TProperties> = Static<TObject<C>>

/** Declares an action type. Pure: registering happens when a registry is created from it. */
export function defineActionType<C extends TProperties>(spec: ActionTypeSpec<C>): ActionType {
  // Typed as a plain TObject: the type's own keys are read through `ActionConfigOf` where needed.
  const schema: TObject = Type.Object(spec.config as TProperties, {
    additionalProperties: false,
    default: {},
  })
  return Object.freeze({ type: spec.type, schema, ...(spec.plugin ? { plugin: spec.plugin } : {}) })
}

export interface ActionTypeRegistry {
  get(type: string): ActionType | undefined
  /** Throws when the type is not registered. */
  require(type: string): ActionType
  list(): ActionType[]
}

/** A registry of the given types; the same type twice is an error (a plugin may not shadow another's). */
export function createActionTypeRegistry(types: readonly ActionType[]): ActionTypeRegistry {
  const byType = new Map<string, ActionType>()
  for (const actionType of types) {
    if (byType.has(actionType.type)) throw new Error(`The action type "${actionType.type}" is registered twice`)
    byType.set(actionType.type, actionType)
  }
  const all = [...byType.values()]
  return Object.freeze({
    get: (type: string) => byType.get(type),
    require(type: string) {
      const found = byType.get(type)
      if (!found) throw new Error(`Unknown action type "${type}"`)
      return found
    },
    list: () => [...all],
  })
}

const Text = (fallback = '') => Type.String({ default: fallback })
/** Text where ${field} placeholders are replaced by the fields' values when the step runs. */
const Template = (fallback = '') => Type.String({ default: fallback, description: 'Text with ${field} placeholders' })
/** A process state id to move the case to when saving ('' follows the process). */
const GoToState = Type.String({ default: '' })

// The spec's core action types (000 §4), one line of config each; devices and documents bring the rest.
export const coreActionTypes: readonly ActionType[] = /* @__PURE__ */ Object.freeze([
  /** Reloads the case's form from the server (values, states, tasks). */
  defineActionType({ type: 'refresh', config: {} }),
  /** Submits the task (the required check may be skipped for new and enter, spec 000 §5). */
  defineActionType({ type: 'send', config: { go_to_state: GoToState } }),
  /** Saves the case; does nothing while required fields are missing (except in invisible mode). */
  defineActionType({ type: 'save', config: { go_to_state: GoToState } }),
  /** Shows a page of the form. */
  defineActionType({ type: 'go_to_page', config: { page: PageRef } }),
  /** Opens an address (http, https or a path of this site), in a new tab by default. */
  defineActionType({
    type: 'open_url',
    config: {
      url: Type.String({ minLength: 1, description: 'Text with ${field} placeholders' }),
      new_tab: Type.Boolean({ default: true }),
    },
  }),
  /** A browser notification (and a socket message to the case's watchers). */
  defineActionType({ type: 'push_notify', config: { title: Template(), message: Template() } }),
  /** Opens the camera; the photo (jpeg, quality 0.9) goes into an image field. */
  defineActionType({ type: 'take_photo', config: { field: FieldNameRef } }),
  /** Draws a QR code or a barcode of `value` (PNG, quality 0.9) into an image field. */
  defineActionType({
    type: 'create_bar_code_qr',
    config: {
      field: FieldNameRef,
      value: Template(),
      kind: Type.Union([Type.Literal('qr'), Type.Literal('barcode')], { default: 'qr' }),
      /** jsbarcode's format, for barcodes. */
      format: Text('CODE128'),
    },
  }),
  /** Waits before the next step (seconds × 1000 ms, spec 001 §9). */
  defineActionType({ type: 'delay', config: { seconds: Type.Number({ minimum: 0, default: 1 }) } }),
  /** Runs another action of the form, waiting for it or in the background. */
  defineActionType({
    type: 'start_action',
    config: {
      action: ActionNameRef,
      mode: Type.Union([Type.Literal('awaited'), Type.Literal('background')], { default: 'awaited' }),
    },
  }),
  /** Captures a barcode reader or RFID typing into a field: ends on Enter, 200 ms idle or `seconds`. */
  defineActionType({
    type: 'get_barcode_reader_or_rfid',
    config: { field: FieldNameRef, seconds: Type.Number({ exclusiveMinimum: 0, default: 10 }) },
  }),
  /** Sets a field's value from text (placeholders filled, coerced as external values are), or from a formula when it has one. */
  defineActionType({ type: 'set_value', config: { field: FieldNameRef, value: Template(), formula: Script } }),
  /** CSS properties (camelCase keys) applied to the fields' boxes. */
  defineActionType({
    type: 'set_style',
    config: { fields: FieldNamesRef, style: Type.Record(Type.String(), Type.String(), { default: {} }) },
  }),
  /** Changes the fields' state; a key left unset is left as it is. */
  defineActionType({
    type: 'set_state',
    config: {
      fields: FieldNamesRef,
      // The field state's three natural states, without a default: unset leaves the state as it is.
      natural: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled'), Type.Literal('readonly')])),
      see: Type.Optional(Type.Boolean()),
      required: Type.Optional(Type.Boolean()),
    },
  }),
  /** Replaces a choice field's options, or with a formula returning [{id, label}]. */
  defineActionType({
    type: 'set_options',
    config: { field: FieldNameRef, options: Type.Array(ChoiceOption, { default: [] }), formula: Script },
  }),
  /** Runs a script in the browser's sandbox, or on the server's (permitted users, rate-limited). */
  defineActionType({
    type: 'execute_script',
    config: { code: Script, side: Type.Union([Type.Literal('client'), Type.Literal('server')], { default: 'client' }) },
  }),
  /** Opens a modal (after 100 ms) showing pages of the form or an address. */
  defineActionType({
    type: 'open_modal',
    config: {
      title: Template(),
      content: Type.Union([Type.Literal('page'), Type.Literal('url')], { default: 'page' }),
      page: PageRef,
      url: Template(),
    },
  }),
  defineActionType({ type: 'close_modal', config: {} }),
  /** Renders a PDF from the form's values with a template stored with the form, attached to the case. */
  defineActionType({
    type: 'create_doc',
    config: { template: Type.String({ minLength: 1 }), file_name: Template('documento.pdf') },
  }),
  /** The progress bar over the form, with a message. */
  defineActionType({ type: 'show_progress_bar', config: { message: Template(), color: Text('#7f82ff') } }),
  defineActionType({ type: 'hide_progress_bar', config: {} }),
])

let core: ActionTypeRegistry | undefined

/** The registry of the core action types alone (built once, on first use). */
export function coreActionRegistry(): ActionTypeRegistry {
  core ??= createActionTypeRegistry(coreActionTypes)
  return core
}

/** A step's config with its type's defaults (a new object; an unknown type's config is returned as it is). */
export function actionConfigWithDefaults(
  step: { type: string; config?: unknown },
  registry: ActionTypeRegistry = coreActionRegistry()
): Record<string, unknown> {
  const config = typeof step.config === 'object' && step.config !== null ? step.config : {}
  const copy = JSON.parse(JSON.stringify(config)) as Record<string, unknown>
  const actionType = registry.get(step.type)
  return actionType ? (defaultsApplier(actionType.schema)(copy) as Record<string, unknown>) : copy
}

/** The names a step's config refers to (fields, actions, pages), each with its key path inside the config. */
export function configReferences(
  actionType: ActionType,
  config: Record<string, unknown>
): { role: 'field' | 'action' | 'page'; path: (string | number)[]; value: unknown }[] {
  const found: { role: 'field' | 'action' | 'page'; path: (string | number)[]; value: unknown }[] = []
  for (const [key, schema] of Object.entries(actionType.schema.properties as Record<string, TSchema>)) {
    const role = configRole(schema)
    const value = config[key]
    if (value === undefined) continue
    if (role === 'field' || role === 'action' || role === 'page') found.push({ role, path: [key], value })
    else if (role === 'fields' && Array.isArray(value)) {
      value.forEach((one, i) => found.push({ role: 'field', path: [key, i], value: one }))
    }
  }
  return found
}
