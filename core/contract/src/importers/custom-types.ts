/**
 * Custom component types (issue 24): a Form.io component or SurveyJS question of a type the importer
 * does not read is rewritten as one it does, by the mapping file (type-map.ts) first, else by its shape
 * where the shape is clear. "Clear" means one of these, tried in this order; anything else is reported
 * with its path and skipped, as before:
 *
 * 1. composite: it holds children (`components` / `elements`). Its parts become fields of their own,
 *    named `key.part` as the source reads them (and by their bare key when no other field has it).
 *    A condition on the composite as a whole finds no field and is reported.
 * 2. file: it has a file setting (`storage`, `filePattern`, `fileTypes`; SurveyJS `acceptedTypes`,
 *    `allowMultiple`, `maxSize`) or its type is named attachment / file / upload (adjunto, archivo).
 * 3. yes / no: its type is named yes/no (sí/no), or it lists exactly two options, one yes-like and one
 *    no-like. Options given as true / false become the yes/no kind of values.ts (ids 'true', 'false'),
 *    as do the options of a named yes/no that lists none; text options (`yes`, `no`) are kept as they
 *    are, so a condition `== 'yes'` keeps the meaning the source library gives it.
 * 4. choice: it takes input (as in 5) and lists other options: one is chosen, a radio group (Form.io
 *    `values`) or a select (`data.values`); SurveyJS a radiogroup. Not a Form.io `multiple` one.
 * 5. text: it holds `html`, `content` or `text` and takes no input (`input` not true, no options):
 *    a text element, through html-text.ts.
 * 6. input: Form.io `input: true` (SurveyJS: an `inputType`, `placeholder` or `maxLength`) with no
 *    other clue: a text field. Form.io's own types whose value is not a text are never guessed at.
 *
 * Every mapping is reported in `unmapped` with `mapped` set to the library's type it was read as (what
 * a mapping file would name; "composite" for parts, "html" for a SurveyJS text element) and a reason
 * saying why, so nothing changes meaning silently.
 */
import type { FormDraft } from './draft.js'
import { textElementOf } from './html-text.js'
import { at, pickText } from './source-text.js'
import { COMPOSITE, isKnownType, type Library, type TypeMapping } from './type-map.js'
import { isObject, listOf, type DraftItem, type Json } from './types.js'

interface Shape {
  as: 'composite' | 'file' | 'yesno' | 'choice' | 'text' | 'input'
  why: string
}

interface Keys {
  label: string
  name: 'key' | 'name'
  children: 'components' | 'elements'
  options: string[]
  files: string[]
}

const KEYS: Record<Library, Keys> = {
  formio: {
    label: 'Form.io component',
    name: 'key',
    children: 'components',
    options: ['values', 'data.values'],
    files: ['storage', 'filePattern', 'fileTypes'],
  },
  surveyjs: {
    label: 'SurveyJS question',
    name: 'name',
    children: 'elements',
    options: ['choices'],
    files: ['acceptedTypes', 'allowMultiple', 'maxSize'],
  },
}

/** Form.io's own types whose value is an object or a list: a text field would change their meaning. */
const NOT_GUESSED = new Set(['address', 'form', 'datamap', 'tree', 'tagpad', 'sketchpad', 'recaptcha', 'dynamicWizard'])

/** Words of a type name as written (yesNo, yes_no, file-upload): a name is judged by whole words. */
const words = (type: string) =>
  ` ${type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9áéíóúñ]+/)
    .join(' ')} `
const FILE_NAME = / (attach\w*|upload\w*|files?|fileupload|adjuntos?|archivos?) /
const YES_NO_NAME = / (yes ?no|s[ií] ?no) /
/** Containers that only lay out their children: a composite's parts inside them are still its parts. */
const LAYOUTS = new Set(['panel', 'fieldset', 'well', 'columns', 'tabs'])
const YES = new Set(['yes', 'y', 'si', 'sí', 'true', '是'])
const NO = new Set(['no', 'n', 'false', '否'])
const TEXT_KEYS = ['html', 'content', 'text']

const lower = (value: unknown) => pickText(value).trim().toLowerCase()

/** +1 yes-like, -1 no-like, 0 neither: by its value, else by its label. */
function polarity(option: unknown): number {
  const value = isObject(option) ? option.value : option
  const label = isObject(option) ? (option.label ?? option.text) : undefined
  for (const word of [lower(value), lower(label)]) {
    if (YES.has(word)) return 1
    if (NO.has(word)) return -1
  }
  return 0
}

function optionsOf(c: Json, keys: Keys): unknown[] | undefined {
  for (const key of keys.options) {
    const list = at(c, key)
    if (Array.isArray(list) && list.length > 0) return list
  }
  return undefined
}

const isYesNoPair = (options: unknown[]) =>
  options.length === 2 && polarity(options[0]) + polarity(options[1]) === 0 && polarity(options[0]) !== 0

function textOf(c: Json): string {
  for (const key of TEXT_KEYS) if (pickText(c[key]).trim() !== '') return pickText(c[key])
  return ''
}

function shapeOf(library: Library, type: string, c: Json): Shape | undefined {
  const keys = KEYS[library]
  const options = optionsOf(c, keys)
  if (listOf(c[keys.children]).length > 0) return { as: 'composite', why: `it holds ${keys.children}` }
  const fileKey = keys.files.find((key) => c[key] !== undefined)
  if (fileKey) return { as: 'file', why: `it has "${fileKey}"` }
  if (FILE_NAME.test(words(type))) return { as: 'file', why: 'its type is named as a file' }
  if (options && isYesNoPair(options)) return { as: 'yesno', why: 'it lists a yes and a no option' }
  if (!options && YES_NO_NAME.test(words(type))) return { as: 'yesno', why: 'its type is named yes/no' }
  const takesInput =
    library === 'formio'
      ? c.input === true
      : ['inputType', 'placeholder', 'maxLength'].some((key) => c[key] !== undefined)
  if (options && takesInput && !(library === 'formio' && c.multiple === true))
    return { as: 'choice', why: 'it takes input and lists options, one of which is chosen' }
  if (options) return undefined
  if (!takesInput && textOf(c) !== '') return { as: 'text', why: 'it holds only text' }
  if (takesInput && !(library === 'formio' && NOT_GUESSED.has(type)))
    return { as: 'input', why: 'it takes input and has no other clue' }
  return undefined
}

/** The parts of a composite with their keys as the source reads them (`composite.part`), through layouts. */
function prefixed(children: unknown, prefix: string, keys: Keys, later: [string, string][]): unknown[] {
  return listOf(children).map((child) => {
    if (!isObject(child)) return child
    const copy: Json = { ...child }
    const own = child[keys.name]
    if (typeof own === 'string' && own !== '') {
      copy[keys.name] = `${prefix}.${own}`
      // SurveyJS titles a question by its name when it has no title: the part's own name, not the path.
      if (keys.name === 'name' && copy.title === undefined) copy.title = own
      later.push([`${prefix}.${own}`, own])
    }
    // A nested composite or data container names its own parts; a layout (or a tab, untyped) does not.
    const layout = child.type === undefined || LAYOUTS.has(String(child.type))
    if (layout && Array.isArray(child[keys.children]))
      copy[keys.children] = prefixed(child[keys.children], prefix, keys, later)
    if (layout && Array.isArray(child.columns))
      copy.columns = child.columns.map((col) =>
        isObject(col) ? { ...col, components: prefixed(col.components, prefix, keys, later) } : col
      )
    return copy
  })
}

/** A composite as the layout container of its library, its parts named `key.part`. */
function composite(draft: FormDraft, library: Library, c: Json, key: string, path: string): Json {
  const keys = KEYS[library]
  if (listOf(c[keys.children]).length === 0)
    draft.skip(path, `the composite "${key}" has no ${keys.children}: no parts`)
  const aliases: [string, string][] = []
  const parts = prefixed(c[keys.children], key, keys, aliases)
  // The bare key of a part reads it too, unless another field already answers to it.
  draft.later(() => {
    for (const [full, bare] of aliases) {
      const item = draft.find(full)
      if (item) draft.alias(bare, item)
    }
  })
  return library === 'formio'
    ? { ...c, type: 'fieldset', legend: c.legend ?? c.label, components: parts }
    : { ...c, type: 'panel', elements: parts }
}

/** True / false options as the yes/no kind (ids 'true', 'false', in that order), labels kept. */
function booleanOptions(options: unknown[] | undefined): { yes: string; no: string } | undefined {
  if (options === undefined) return { yes: 'Sí', no: 'No' }
  const values = options.map((o) => (isObject(o) ? o.value : o))
  if (!values.every((v) => typeof v === 'boolean')) return undefined
  const labelOf = (want: boolean) => {
    const found = options.find((o) => isObject(o) && o.value === want)
    return pickText(isObject(found) ? (found.label ?? found.text) : undefined) || (want ? 'Sí' : 'No')
  }
  return { yes: labelOf(true), no: labelOf(false) }
}

function yesNo(library: Library, c: Json): Json {
  const options = optionsOf(c, KEYS[library])
  const labels = booleanOptions(options)
  if (library === 'surveyjs') {
    return labels
      ? { ...c, type: 'boolean', labelTrue: labels.yes, labelFalse: labels.no }
      : { ...c, type: 'radiogroup' }
  }
  if (!labels) return { ...c, type: 'radio', values: options }
  return {
    ...c,
    type: 'radio',
    values: [
      { value: 'true', label: labels.yes },
      { value: 'false', label: labels.no },
    ],
  }
}

/** The component rewritten for a shape, or the items already built (a SurveyJS text element). */
function byShape(
  draft: FormDraft,
  library: Library,
  shape: Shape,
  c: Json,
  key: string,
  path: string
): Json | DraftItem[] {
  switch (shape.as) {
    case 'composite':
      return composite(draft, library, c, key, path)
    case 'file':
      return { ...c, type: 'file' }
    case 'yesno':
      return yesNo(library, c)
    case 'choice':
      if (library === 'surveyjs') return { ...c, type: 'radiogroup' }
      return { ...c, type: Array.isArray(c.values) ? 'radio' : 'select' }
    case 'input':
      return { ...c, type: library === 'formio' ? 'textfield' : 'text' }
    case 'text': {
      if (library === 'formio') return { ...c, type: 'content', html: textOf(c) }
      const { type, data } = textElementOf(textOf(c))
      return [draft.element(key, type, data)]
    }
  }
}

const NAMES: Record<Shape['as'], string> = {
  composite: 'its parts, each a field of its own',
  file: 'a file field',
  yesno: 'yes / no radios',
  choice: 'a single choice of its options',
  text: 'a text element',
  input: 'a text field',
}

/**
 * A component of a type the importer does not read (or one the mapping file names), as one it does:
 * the rewritten component, the items already built, or the component itself when nothing applies.
 */
function custom(draft: FormDraft, library: Library, c: Json, path: string): Json | DraftItem[] {
  const type = String(c.type)
  const keys = KEYS[library]
  const key = typeof c[keys.name] === 'string' && c[keys.name] !== '' ? String(c[keys.name]) : type
  const mapping: TypeMapping | undefined = Object.hasOwn(draft.typeMap, type) ? draft.typeMap[type] : undefined
  if (mapping) {
    const merged = { ...c, ...(JSON.parse(JSON.stringify(mapping.overrides)) as Json), type: mapping.type }
    const parts = mapping.type === COMPOSITE ? ` (${keys.children} as fields of their own)` : ''
    draft.unmapped.push({
      path,
      reason: `the custom ${keys.label} "${type}" is imported as "${mapping.type}"${parts}, as the mapping file says`,
      mapped: mapping.type,
    })
    return mapping.type === COMPOSITE ? composite(draft, library, merged, key, path) : merged
  }
  if (type !== COMPOSITE && isKnownType(library, type)) return c
  const shape = shapeOf(library, type, c)
  if (!shape) return c
  const result = byShape(draft, library, shape, c, key, path)
  const became = Array.isArray(result) ? 'html' : String(result.type)
  const condition = shape.as === 'composite' ? `; a condition on "${key}" as a whole is not carried` : ''
  draft.unmapped.push({
    path,
    reason: `the custom ${keys.label} "${type}" is mapped by shape to ${NAMES[shape.as]} (${shape.why})${condition}; check it, or name its type in a mapping file`,
    mapped: shape.as === 'composite' ? COMPOSITE : became,
  })
  return result
}

/** A Form.io component as the importer reads it (Form.io's text element is its own `content`). */
export const formioCustom = (draft: FormDraft, c: Json, path: string): Json => custom(draft, 'formio', c, path) as Json

/** A SurveyJS question as the importer reads it, or the text element it already became. */
export const surveyCustom = (draft: FormDraft, q: Json, path: string): Json | DraftItem[] =>
  custom(draft, 'surveyjs', q, path)
