/**
 * A file's indexes (spec 001 §3): the indexes it is filed under with its values, filing it under another
 * one (a typed field per column), taking it out, and a new index with its columns made on the spot.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { toasts } from '@tramita/web/toasts'
import {
  INDEX_COLUMN_TYPES,
  INDEX_LIMITS,
  type FileIndexValues,
  type IndexColumn,
  type IndexRow,
  type IndexValue,
} from '../../shared/indexes.js'
import type { FileRow } from '../../shared/library.js'
import { createIndex, fileIndexes, fileUnderIndex, indexes as listIndexes, unfile } from '../library/api.js'
import { errorText } from '../library/format.js'
import { Dialog } from './Dialog.js'

/** An index's name as a list shows it: a sub-index after its parent's. */
function fullName(index: IndexRow, all: IndexRow[]): string {
  const parent = index.parent_id === null ? undefined : all.find((i) => i.id === index.parent_id)
  return parent ? `${parent.name} › ${index.name}` : index.name
}

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
                    <button type="button" className="docs-action" onClick={() => void remove(entry)}>
                      {t('documents.screens.unfile')}
                      <span className="docs-sr"> {entry.index_name}</span>
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
              <NewIndex
                all={all}
                onMade={(made) => {
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
      <div className="docs-dialog__actions">
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

/** A new index: its name, where it goes (top level or under one), and its columns. */
function NewIndex({ all, onMade, onCancel }: { all: IndexRow[]; onMade(index: IndexRow): void; onCancel(): void }) {
  const { t } = useTranslation()
  const [name, setName] = useState('')
  const [parent, setParent] = useState<number | null>(null)
  const [columns, setColumns] = useState<IndexColumn[]>([{ name: '', type: 'text' }])

  async function make(event: FormEvent) {
    event.preventDefault()
    try {
      onMade(await createIndex(name.trim(), parent, columns))
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  const change = (at: number, patch: Partial<IndexColumn>) =>
    setColumns((current) => current.map((column, i) => (i === at ? { ...column, ...patch } : column)))

  return (
    <form className="docs-form" onSubmit={make} data-testid="docs-new-index">
      <h3 className="docs-subtitle">{t('documents.screens.new_index')}</h3>
      <label>
        {t('documents.screens.index_name')}
        <input
          value={name}
          maxLength={INDEX_LIMITS.nameMax}
          required
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <label>
        {t('documents.screens.index_parent')}
        <select
          value={parent ?? ''}
          onChange={(event) => setParent(event.target.value ? Number(event.target.value) : null)}
        >
          <option value="">{t('documents.screens.index_top')}</option>
          {all
            .filter((i) => i.parent_id === null)
            .map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
        </select>
      </label>
      <fieldset className="docs-columns">
        <legend>{t('documents.screens.index_columns')}</legend>
        {columns.map((column, at) => (
          <div key={at} className="docs-columns__row">
            <label>
              {t('documents.screens.column_name', { n: at + 1 })}
              <input
                value={column.name}
                required
                pattern="[A-Za-z_][A-Za-z0-9_]*"
                maxLength={INDEX_LIMITS.columnNameMax}
                onChange={(event) => change(at, { name: event.target.value })}
              />
            </label>
            <label>
              {t('documents.screens.column_type', { n: at + 1 })}
              <select
                value={column.type}
                onChange={(event) => change(at, { type: event.target.value as IndexColumn['type'] })}
              >
                {INDEX_COLUMN_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`documents.screens.type_${type}`)}
                  </option>
                ))}
              </select>
            </label>
            {columns.length > 1 && (
              <button
                type="button"
                className="docs-action"
                onClick={() => setColumns((current) => current.filter((_, i) => i !== at))}
              >
                {t('documents.screens.remove_column', { n: at + 1 })}
              </button>
            )}
          </div>
        ))}
        {columns.length < INDEX_LIMITS.columns && (
          <button
            type="button"
            className="docs-action"
            onClick={() => setColumns((current) => [...current, { name: '', type: 'text' }])}
          >
            {t('documents.screens.add_column')}
          </button>
        )}
      </fieldset>
      <div className="docs-dialog__actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('documents.screens.cancel')}
        </button>
        <button type="submit" className="button">
          {t('documents.screens.create')}
        </button>
      </div>
    </form>
  )
}
