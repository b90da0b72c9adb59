import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fillTemplate, resourceProblems, toStoredValue, type FormConfig } from '@tramita/contract'
import type { Language } from '@tramita/i18n'

/**
 * create_doc (spec 000 §4): a form's pdfmake template (jsonconfig `documents`, see the contract's
 * documents.ts) filled with the case's values and rendered on the server. pdfmake reads fonts from
 * its own package (Roboto, bundled; nothing fetched) and is allowed no other file and no URL, so a
 * template cannot make the server read /etc/passwd or call out.
 */

interface OutputDocument {
  getBuffer(): Promise<Buffer>
}
interface PdfMake {
  setFonts(fonts: Record<string, Record<string, string>>): void
  setUrlAccessPolicy(policy: (url: string) => boolean): void
  setLocalAccessPolicy(policy: (path: string) => boolean): void
  createPdf(docDefinition: object, options?: object): OutputDocument
}

const require = createRequire(import.meta.url)
let engine: PdfMake | undefined

/** pdfmake, set up once: its bundled Roboto, its own font files the only local files it may open. */
function pdfmake(): PdfMake {
  if (engine) return engine
  const fontsDir = join(dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto')
  const font = (name: string) => join(fontsDir, name)
  const maker = require('pdfmake') as PdfMake
  maker.setFonts({
    Roboto: {
      normal: font('Roboto-Regular.ttf'),
      bold: font('Roboto-Medium.ttf'),
      italics: font('Roboto-Italic.ttf'),
      bolditalics: font('Roboto-MediumItalic.ttf'),
    },
  })
  maker.setUrlAccessPolicy(() => false)
  maker.setLocalAccessPolicy((path) => resolve(path).startsWith(fontsDir + '/'))
  engine = maker
  return engine
}

/** A refused template or value: its message is for the caller. */
export class TemplateError extends Error {}

/**
 * The text each placeholder gets: a field's display text (the contract's value_replace, what the
 * consultation shows), else the value as text; CODE_PROCESS is the case's code.
 */
export function placeholderTexts(
  form: FormConfig,
  values: Record<string, unknown>,
  code: string,
  lang: Language
): Record<string, string> {
  const texts: Record<string, string> = { CODE_PROCESS: code }
  for (const item of form.fields) {
    if (!(item.field_name in values)) continue
    const value = values[item.field_name]
    try {
      texts[item.field_name] = String(toStoredValue(item, value, { lang }).value_replace ?? '')
    } catch {
      // A value not of its type's shape (the runtime sends what the user typed so far): shown as text.
      texts[item.field_name] =
        value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)
    }
  }
  return texts
}

/** Renders a filled template to PDF bytes; a template pdfmake cannot lay out is a TemplateError. */
export async function renderPdf(template: object, texts: Record<string, string>): Promise<Buffer> {
  // validateConfig refuses these at publication; checked again here for forms stored before the check.
  if (resourceProblems(template).length > 0) throw new TemplateError('resources')
  const definition = fillTemplate(template, texts) as Record<string, unknown>
  try {
    return await pdfmake().createPdf(definition).getBuffer()
  } catch (error) {
    throw new TemplateError(error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'pdfmake')
  }
}
