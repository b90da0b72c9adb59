/**
 * A file's indexes (spec 001 §3): the indexes it is filed under with its values, filing it under another
 * one (a typed field per column), taking it out, and a new index with its columns made on the spot.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import {
  INDEX_LIMITS,
  type FileIndexValues,
  type IndexColumn,
  type IndexRow,
  type IndexValue,
} from '../../shared/indexes.js'
import type { FileRow } from '../../shared/library.js'
import { createIndex, fileIndexes, fileUnderIndex, indexes as listIndexes, unfile } from '../library/api.js'
import { fullName, IndexForm } from './IndexForm.js'

export function IndexesDialog({ file, onClose }: { file: FileRow; onClose(): void }) {
  const { t } = useTranslation()
  const [all, setAll] = useState<IndexRow[] | null>(null)
  const [filed, setFiled] = useState<FileIndexValues[]>([])
  const [chosen, setChosen] = useState<number | null>(null)
  const [values, setValues] = useState<Record<string, IndexValue>>({})
  const [making, setMaking] = useState(false)
  const writable = file.permission === 'all'

  useEffect(() => {
    Promise.all([listIndexes(), fileIndexes(file.id)]).then(
      ([list, mine]) => {
        setAll(list)
        setFiled(mine)
      },
      (error: unknown) => {
        toasts.error(errorText(error))
        setAll([])
      }
    )
  }, [file.id])

  const index = all?.find((i) => i.id === chosen) ?? null

  function choose(id: number | null) {
    setChosen(id)
    setValues(filed.find((f) => f.index_id === id)?.values ?? {})
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    if (!index) return
    try {
      const saved = await fileUnderIndex(file.id, index.id, values)
      setFiled((current) => [...current.filter((f) => f.index_id !== saved.index_id), saved])
      toasts.success(t('documents.screens.index_saved'))
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  async function remove(entry: FileIndexValues) {
    try {
      await unfile(file.id, entry.index_id)
      setFiled((current) => current.filter((f) => f.index_id !== entry.index_id))
      if (chosen === entry.index_id) setValues({})
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.indexes_of', { name: file.name })}
      onClose={onClose}
      testId="docs-indexes-dialog"
    >
      {all === null ? (
        <p role="status" aria-busy="true" />
      ) : (
        <>
          <section aria-label={t('documents.screens.filed_under')}>
            <h3 className="docs-subtitle">{t('documents.screens.filed_under')}</h3>
            {filed.length === 0 && <p className="muted">{t('documents.screens.not_filed')}</p>}
            {filed.map((entry) => {
              const known = all.find((i) => i.id === entry.index_id)
              return (
                <div key={entry.index_id} className="docs-filed" data-testid="docs-filed">
                  <strong>{known ? fullName(known, all) : entry.index_name}</strong>
                  <dl>
                    {Object.entries(entry.values).map(([name, value]) => (
                      <div key={name}>
                        <dt>{name}</dt>
                        <dd>{shown(value, t)}</dd>
                      </div>
                    ))}
                  </dl>
                  {writable && (
                    <button type="button" className="link-button" onClick={() => void remove(entry)}>
                      {t('documents.screens.unfile')}
                      <span className="visually-hidden"> {entry.index_name}</span>
                    </button>
                  )}
                </div>
              )
            })}
          </section>
          {writable && (
            <form className="docs-form" onSubmit={save} data-testid="docs-index-values">
              <label>
                {t('documents.screens.index')}
                <select
                  value={chosen ?? ''}
                  onChange={(event) => choose(event.target.value ? Number(event.target.value) : null)}
                >
                  <option value="">{t('documents.screens.choose')}</option>
                  {all.map((i) => (
                    <option key={i.id} value={i.id}>
                      {fullName(i, all)}
                    </option>
                  ))}
                </select>
              </label>
              {index?.columns.map((column) => (
                <ValueField
                  key={`${index.id}:${column.name}`}
                  column={column}
                  value={values[column.name] ?? null}
                  onChange={(value) => setValues((current) => ({ ...current, [column.name]: value }))}
                />
              ))}
              {index && (
                <button type="submit" className="button">
                  {t('documents.screens.save')}
                </button>
              )}
            </form>
          )}
          {writable &&
            (making ? (
              <IndexForm
                all={all}
                heading={t('documents.screens.new_index')}
                submit={t('documents.screens.create')}
                testId="docs-new-index"
                onSubmit={async (draft) => {
                  const made = await createIndex(draft.name, draft.parent, draft.columns)
                  setAll((current) => [...(current ?? []), made])
                  setMaking(false)
                  choose(made.id)
                }}
                onCancel={() => setMaking(false)}
              />
            ) : (
              <button type="button" className="button" onClick={() => setMaking(true)}>
                {t('documents.screens.new_index')}
              </button>
            ))}
        </>
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('documents.screens.close')}
        </button>
      </div>
    </Dialog>
  )
}

function shown(value: IndexValue, t: (key: string) => string): string {
  if (value === true) return t('documents.screens.yes')
  if (value === false) return t('documents.screens.no')
  return value === null ? '' : String(value)
}

/** One column's field, typed as the column is; an empty field is no value. */
function ValueField({
  column,
  value,
  onChange,
}: {
  column: IndexColumn
  value: IndexValue
  onChange(value: IndexValue): void
}) {
  if (column.type === 'boolean') {
    return (
      <label className="docs-check">
        <input type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
        {column.name}
      </label>
    )
  }
  const type = column.type === 'number' ? 'number' : column.type === 'date' ? 'date' : 'text'
  return (
    <label>
      {column.name}
      <input
        type={type}
        value={value === null ? '' : String(value)}
        maxLength={column.type === 'text' ? INDEX_LIMITS.textMax : undefined}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
      />
    </label>
  )
}
