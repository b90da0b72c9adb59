import { readFileSync, writeFileSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type { Command } from 'commander'
import { withMigratedApp } from '../app.js'
import { CliError } from '../output.js'

const FORMATS = ['jsonconfig', 'formio', 'surveyjs'] as const
type Format = (typeof FORMATS)[number]
const MAP_HELP =
  'a JSON file naming how custom component types are read: {"formio": {"<custom>": "<type>" | ' +
  '{"type": "<type>", ...properties}}, "surveyjs": {...}}; "composite" imports its parts as fields'

/** The parsed JSON of a form file; a missing file or bad JSON is a one-line failure. */
function readJson(file: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new CliError(`cannot read ${file}`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`)
  }
}

function formatOption(value: string | undefined): Format | undefined {
  if (value === undefined) return undefined
  if (!(FORMATS as readonly string[]).includes(value)) {
    throw new CliError(`unknown format "${value}": use ${FORMATS.join(', ')}`)
  }
  return value as Format
}

/** The mapping file of custom component types (`--map`); a bad one is a one-line failure naming it. */
async function typeMapOf(mapFile: string | undefined) {
  if (mapFile === undefined) return undefined
  const { parseTypeMap } = await import('@tramita/contract')
  try {
    return parseTypeMap(readJson(mapFile))
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`${mapFile}: ${(error as Error).message}`)
  }
}

/** The file's definition (detected or forced format); an unreadable definition is a one-line failure. */
async function definitionOf(file: string, opts: { format?: string; name?: string; map?: string }) {
  const { definitionFromFile } = await import('@tramita/contract')
  const fallback = opts.name?.trim() || basename(file, extname(file))
  const typeMap = await typeMapOf(opts.map)
  try {
    const read = definitionFromFile(readJson(file), fallback, formatOption(opts.format), { typeMap })
    if (opts.name?.trim()) read.definition.name = opts.name.trim()
    return read
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`${file}: ${(error as Error).message}`)
  }
}

/** What the importer could not carry, and the custom types it read as others (`mapped`), one per line. */
function reportUnmapped(unmapped: { path: string; reason: string; mapped?: string }[]): void {
  for (const u of unmapped) console.log(`${u.mapped ? 'mapped' : 'not imported'} ${u.path}: ${u.reason}`)
}

/** Problems one per line, `path: message`, after a heading; the command then exits 1. */
function reportProblems(file: string, problems: { path: string; message: string }[]): never {
  console.error(`${file}: ${problems.length} problem(s)`)
  for (const p of problems) console.error(`  ${p.path || '/'}: ${p.message}`)
  process.exitCode = 1
  throw new CliError(`${file} is not a valid form definition`)
}

/** forms:list, forms:import, forms:export and forms:validate (issue 6). */
export function registerForms(program: Command) {
  program
    .command('forms:list')
    .description('list the forms with their published versions and drafts')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withMigratedApp(async () => {
        const { listForms } = await import('@tramita/server/app/services/process/form_catalog.ts')
        const forms = await listForms()
        if (opts.json) return console.log(JSON.stringify(forms, null, 2))
        if (forms.length === 0) return console.log('No forms')
        console.log(['ID', 'VERSION', 'DRAFT', 'KEY', 'NAME'].join('\t'))
        for (const f of forms) {
          console.log([f.id, f.latest_version ?? '-', f.draft_updated_at ? 'yes' : 'no', f.key, f.name].join('\t'))
        }
      })
    })

  program
    .command('forms:validate')
    .argument('<file>', 'a jsonconfig, an exported form, a Form.io form or a SurveyJS survey')
    .option('--format <format>', `force the format: ${FORMATS.join(', ')}`)
    .option('--map <file>', MAP_HELP)
    .description('check a form file against the contract; exit 1 with every problem at its path')
    .action(async (file: string, opts: { format?: string; map?: string }) => {
      const { definitionProblems } = await import('@tramita/contract')
      const read = await definitionOf(file, opts)
      reportUnmapped(read.unmapped)
      const problems = definitionProblems(read.definition.jsonconfig, read.definition.process)
      if (problems.length > 0) reportProblems(file, problems)
      console.log(`${file}: valid ${read.format} form "${read.definition.name}"`)
    })

  program
    .command('forms:import')
    .argument('<file>', 'a jsonconfig, an exported form, a Form.io form or a SurveyJS survey')
    .option('--format <format>', `force the format: ${FORMATS.join(', ')}`)
    .option('--map <file>', MAP_HELP)
    .option('--name <name>', 'the form name (default: the file name, or the exported name)')
    .option('--publish', 'publish it as version 1 (refused, and nothing stored, when it has problems)')
    .description('create a form from a file, as a draft for the designer or published')
    .action(async (file: string, opts: { format?: string; name?: string; map?: string; publish?: boolean }) => {
      const read = await definitionOf(file, opts)
      await withMigratedApp(async () => {
        const forms = await import('@tramita/server/app/services/process/forms.ts')
        reportUnmapped(read.unmapped)
        const problems = forms.definitionProblems(read.definition.jsonconfig, read.definition.process)
        if (opts.publish) {
          if (problems.length > 0) reportProblems(file, problems)
          const published = await forms.publishForm({ ...read.definition, userId: null })
          console.log(`form ${published.formId} "${read.definition.name}" published as version ${published.version}`)
          console.log(`start a case at /forms/new?data=${published.key}`)
          return
        }
        const created = await forms.createForm(read.definition, null)
        console.log(`form ${created.formId} "${read.definition.name}" created as a draft`)
        if (problems.length > 0) {
          console.log(`${problems.length} problem(s) to fix before publishing:`)
          for (const p of problems) console.log(`  ${p.path || '/'}: ${p.message}`)
        }
      })
    })

  program
    .command('forms:export')
    .argument('<id>', 'the form id (see forms:list)')
    .option('--version <n>', 'a published version (default: the latest; the draft when none is published)')
    .option('-o, --out <file>', 'write to a file instead of the standard output')
    .description('print a form as JSON {name, version, jsonconfig, process}, the format forms:import reads')
    .action(async (id: string, opts: { version?: string; out?: string }) => {
      if (!/^\d{1,10}$/.test(id)) throw new CliError(`invalid form id "${id}"`)
      if (opts.version !== undefined && !/^\d{1,10}$/.test(opts.version)) {
        throw new CliError(`invalid version "${opts.version}"`)
      }
      const document = await withMigratedApp(async () => {
        const catalog = await import('@tramita/server/app/services/process/form_catalog.ts')
        const detail = await catalog.formDetail(Number(id))
        if (!detail) throw new CliError(`there is no form ${id}`)
        const version = opts.version ? Number(opts.version) : detail.versions[0]?.version
        if (version === undefined) {
          // Nothing published yet: the draft, marked as such.
          return { name: detail.name, version: null, draft: true, ...detail.draft }
        }
        const found = await catalog.versionDocument(Number(id), version)
        if (!found) throw new CliError(`form ${id} has no published version ${version}`)
        return { name: found.name, version: found.version, jsonconfig: found.jsonconfig, process: found.process }
      })
      const text = JSON.stringify(document, null, 2) + '\n'
      if (opts.out) writeFileSync(opts.out, text)
      else process.stdout.write(text)
    })
}
