import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ActionTypeRegistry, FieldTypeRegistry, ImportFormat, TypeMap } from '@tramita/contract'
import { replaceDocument, validateDocument, type DesignDocument } from '../model/index.js'
import {
  documentText,
  importText,
  readDocumentText,
  readTypeMapText,
  type Imported,
  type TextError,
} from './document_text.js'

const FORMATS: (ImportFormat | '')[] = ['', 'jsonconfig', 'formio', 'surveyjs']

interface Props {
  doc: DesignDocument
  run: (command: ReturnType<typeof replaceDocument>) => boolean
  registry: FieldTypeRegistry
  actionTypes?: ActionTypeRegistry
}

/**
 * The document as JSON, to read and to write (applied as one undoable change, with the contract's
 * problems listed at their paths), import of a jsonconfig, a Form.io form or a SurveyJS survey (what
 * could not be carried is listed before it replaces anything) and export as a file.
 */
export function JsonView({ doc, run, registry, actionTypes }: Props) {
  const { t } = useTranslation()
  const original = useMemo(() => documentText(doc), [doc])
  const [text, setText] = useState(original)
  const [error, setError] = useState<TextError>()
  const [imported, setImported] = useState<Imported>()
  const [format, setFormat] = useState<ImportFormat | ''>('')
  const [typeMap, setTypeMap] = useState<{ name: string; map: TypeMap }>()
  // Custom types read as others (custom-types.ts) are listed apart from what was not brought over.
  const notImported = imported?.unmapped.filter((u) => !u.mapped) ?? []
  const mapped = imported?.unmapped.filter((u) => u.mapped) ?? []
  const problems = useMemo(() => validateDocument(doc, registry, actionTypes), [doc, registry, actionTypes])
  // The document changed (applied here, undone, edited in another view): the text follows it.
  useEffect(() => setText(original), [original])

  const apply = () => {
    const read = readDocumentText(text)
    if (!read.ok) return setError(read.error)
    setError(undefined)
    run(replaceDocument(read.value))
  }
  const readFile = async (file: File | undefined) => {
    if (!file) return
    const read = importText(await file.text(), doc, format || undefined, typeMap?.map)
    setImported(read.ok ? read.value : undefined)
    setError(read.ok ? undefined : read.error)
  }
  // A bad mapping file is shown like a bad form file, and the one in use (if any) is dropped.
  const readMapFile = async (file: File | undefined) => {
    if (!file) return setTypeMap(undefined)
    const read = readTypeMapText(await file.text())
    setTypeMap(read.ok ? { name: file.name, map: read.value } : undefined)
    setError(read.ok ? undefined : { ...read.error, message: `${file.name}: ${read.error.message}` })
  }
  const useImported = () => {
    if (!imported) return
    run(replaceDocument(imported.next))
    setImported(undefined)
  }
  const download = () => {
    const url = URL.createObjectURL(new Blob([documentText(doc)], { type: 'application/json' }))
    const link = Object.assign(document.createElement('a'), { href: url, download: `${doc.name || 'form'}.json` })
    link.click()
    URL.revokeObjectURL(url)
  }

  return (
    <section className="json-view" aria-label={t('json.title')} data-testid="json-view">
      <div className="toolbar">
        <button type="button" onClick={apply} disabled={text === original} data-testid="json-apply">
          {t('json.apply')}
        </button>
        <button type="button" onClick={() => setText(original)} disabled={text === original}>
          {t('json.reset')}
        </button>
        <button type="button" onClick={download} data-testid="json-export">
          {t('json.export')}
        </button>
        <label>
          {t('json.format')}{' '}
          <select value={format} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f ? f : t('json.detect')}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('json.import')}{' '}
          <input
            type="file"
            accept=".json,application/json"
            data-testid="json-import"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
        </label>
        <label>
          {t('json.map')}{' '}
          <input
            type="file"
            accept=".json,application/json"
            data-testid="json-map"
            onChange={(e) => void readMapFile(e.target.files?.[0])}
          />
        </label>
        {typeMap && <span data-testid="json-map-name">{t('json.map_in_use', { name: typeMap.name })}</span>}
      </div>
      {error && (
        <p className="notice notice--error" role="alert" data-testid="json-error">
          {error.line ? t('json.at', { line: error.line, column: error.column }) : ''}
          {error.message}
        </p>
      )}
      {imported && (
        <div className="notice" data-testid="json-imported">
          <p>{t('json.imported', { format: imported.format, count: notImported.length })}</p>
          <ul>
            {notImported.map((u) => (
              <li key={`${u.path} ${u.reason}`}>
                <code>{u.path}</code> {u.reason}
              </li>
            ))}
          </ul>
          {mapped.length > 0 && (
            <>
              <p>{t('json.mapped', { count: mapped.length })}</p>
              <ul data-testid="json-mapped">
                {mapped.map((u) => (
                  <li key={`${u.path} ${u.reason}`}>
                    <code>{u.path}</code> {u.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" onClick={useImported} data-testid="json-use-import">
            {t('json.use_import')}
          </button>
        </div>
      )}
      <textarea
        className="json-text"
        aria-label={t('json.title')}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="json-text"
      />
      <ul className="json-problems" data-testid="json-problems">
        {problems.map((p) => (
          <li key={`${p.path} ${p.message}`}>
            <code>{p.path}</code> {p.message}
          </li>
        ))}
      </ul>
    </section>
  )
}
