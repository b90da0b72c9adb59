/**
 * Document templates stored with a form (the create_doc action, spec 000 §4): the jsonconfig's
 * optional `documents` maps a template name to a pdfmake document definition (plain JSON) whose
 * strings may hold `${field}` placeholders. The server fills them with the case's values and renders
 * the PDF; the designer and validateConfig check them here, so both see the same problems.
 */
import * as Type from './schema/type.js'
import type { ConfigProblem } from './validate-config.js'

/** A template's name: what a create_doc step's `template` names (checked in documentProblems). */
export const DOCUMENT_NAME = /^[A-Za-z0-9_-]{1,64}$/

/** Placeholders every document may use besides the form's fields: the case's code. */
export const DOCUMENT_BUILTINS: readonly string[] = ['CODE_PROCESS']

/**
 * One template: a pdfmake docDefinition. Only `content` is required here; the rest is pdfmake's
 * (styles, pageSize, header...), checked by pdfmake when the document is rendered.
 */
export const DocumentTemplate = Type.Object({ content: Type.Unknown() }, { additionalProperties: true })

/** `documents` of the jsonconfig; absent means none (no default, so existing configs are unchanged). */
export const DocumentTemplates = Type.Record(Type.String(), DocumentTemplate)

const PLACEHOLDER = /\$\{\s*([A-Za-z_$][\w$]*)\s*\}/g

/** Keys pdfmake would read a local file or a URL from: only data: URLs may stand there. */
const RESOURCE_KEYS = new Set(['image', 'images', 'attachment', 'attachments', 'files', 'fonts'])
const DATA_IMAGE = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=\s]+$/

/** Every `${name}` of a template with its JSON path (segments under the template). */
export function templatePlaceholders(template: unknown): { name: string; path: string[] }[] {
  const found: { name: string; path: string[] }[] = []
  walk(template, [], (text, path) => {
    for (const match of text.matchAll(PLACEHOLDER)) found.push({ name: match[1]!, path })
  })
  return found
}

/** Problems of the `documents` of an already schema-checked config, at their paths. */
export function documentProblems(
  documents: Record<string, unknown> | undefined,
  fieldNames: ReadonlySet<string>
): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  for (const [name, template] of Object.entries(documents ?? {})) {
    const at = `/documents/${pointer(name)}`
    if (!DOCUMENT_NAME.test(name)) {
      problems.push({ path: at, message: 'a template name is 1 to 64 letters, digits, "_" or "-"' })
    }
    for (const { name: used, path } of templatePlaceholders(template)) {
      if (!fieldNames.has(used) && !DOCUMENT_BUILTINS.includes(used)) {
        problems.push({
          path: `${at}/${path.map(pointer).join('/')}`,
          message: `"${used}" is not a field of this form`,
        })
      }
    }
    for (const path of resourceProblems(template)) {
      problems.push({
        path: `${at}/${path.map(pointer).join('/')}`,
        message: 'images must be data:image/png or data:image/jpeg URLs; files, attachments and fonts are not allowed',
      })
    }
  }
  return problems
}

/** Paths where a template would make pdfmake read a file or a URL (refused: templates are data). */
export function resourceProblems(template: unknown): string[][] {
  const bad: string[][] = []
  const visit = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) node.forEach((child, i) => visit(child, [...path, String(i)]))
    else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const here = [...path, key]
        if (key === 'image' && typeof child === 'string') {
          if (!DATA_IMAGE.test(child)) bad.push(here)
        } else if (key === 'images' && child && typeof child === 'object' && !Array.isArray(child)) {
          for (const [id, src] of Object.entries(child)) {
            if (typeof src !== 'string' || !DATA_IMAGE.test(src)) bad.push([...here, id])
          }
        } else if (RESOURCE_KEYS.has(key) && key !== 'image') {
          bad.push(here)
        } else visit(child, here)
      }
    }
  }
  visit(template, [])
  return bad
}

/**
 * A copy of the template with each `${name}` replaced by `texts[name]` ('' when absent). Values are
 * inserted as text: a value that itself looks like `${other}` is not expanded again.
 */
export function fillTemplate<T>(template: T, texts: Readonly<Record<string, string>>): T {
  const fill = (node: unknown): unknown => {
    if (typeof node === 'string') return node.replace(PLACEHOLDER, (_, name: string) => texts[name] ?? '')
    if (Array.isArray(node)) return node.map(fill)
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, fill(child)]))
    }
    return node
  }
  return fill(template) as T
}

function walk(node: unknown, path: string[], onText: (text: string, path: string[]) => void) {
  if (typeof node === 'string') onText(node, path)
  else if (Array.isArray(node)) node.forEach((child, i) => walk(child, [...path, String(i)], onText))
  else if (node && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) walk(child, [...path, key], onText)
  }
}

/** A JSON Pointer segment (RFC 6901). */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Spec 000 §9: "ID card enlarge 150%". */
export const IDCARD_ENLARGE = 1.5
/** An ID-1 card (ISO/IEC 7810), in millimetres. */
export const IDCARD_MM = { width: 85.6, height: 53.98 } as const

/** The ID card's printed size in mm, normal or enlarged: the scan dialog's preview and the PDF agree. */
export function idCardSizeMm(enlarged: boolean): { width: number; height: number } {
  const scale = enlarged ? IDCARD_ENLARGE : 1
  const round = (mm: number) => Math.round(mm * scale * 100) / 100
  return { width: round(IDCARD_MM.width), height: round(IDCARD_MM.height) }
}
