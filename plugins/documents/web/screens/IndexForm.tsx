/**
 * An index's name and typed columns as a form (spec 001 §3): a new index, with where it goes (the top
 * level or under a top-level index), or one being changed (its place stays). A file's indexes dialog
 * and the indexes screen both use it. What the server refuses (a name taken at that level, columns it
 * does not accept, an index not the caller's) is shown in the form, with what was typed kept.
 */
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { DialogActions, useAttempt } from '@tramita/web/dialog-form'
import { INDEX_COLUMN_TYPES, INDEX_LIMITS, type IndexColumn, type IndexRow } from '../../shared/indexes.js'

/** An index's name as a list shows it: a sub-index after its parent's. */
export function fullName(index: IndexRow, all: IndexRow[]): string {
  const parent = index.parent_id === null ? undefined : all.find((i) => i.id === index.parent_id)
  return parent ? `${parent.name} › ${index.name}` : index.name
}

export interface IndexDraft {
  name: string
  parent: number | null
  columns: IndexColumn[]
}

interface IndexFormProps {
  /** Every index: the top-level ones are where a new one may go. */
  all: IndexRow[]
  /** The index being changed; absent: a new one. */
  editing?: IndexRow
  /** A heading of its own, when the form is a part of a larger dialog. */
  heading?: string
  submit: string
  testId: string
  /** Sends the draft; a refusal it throws is shown here and the form stays as typed. */
  onSubmit(draft: IndexDraft): Promise<void>
  onCancel(): void
}

export function IndexForm({ all, editing, heading, submit, testId, onSubmit, onCancel }: IndexFormProps) {
  const { t } = useTranslation()
  const [name, setName] = useState(editing?.name ?? '')
  const [parent, setParent] = useState<number | null>(null)
  const [columns, setColumns] = useState<IndexColumn[]>(editing?.columns ?? [{ name: '', type: 'text' }])
  const { failure, busy, attempt } = useAttempt()

  function send(event: FormEvent) {
    event.preventDefault()
    void attempt(() => onSubmit({ name: name.trim(), parent: editing ? editing.parent_id : parent, columns }))
  }

  const change = (at: number, patch: Partial<IndexColumn>) =>
    setColumns((current) => current.map((column, i) => (i === at ? { ...column, ...patch } : column)))
  // The server drops the values of a column removed or given another type (never reads them as another).
  const dropped = (editing?.columns ?? []).filter(
    (old) => !columns.some((column) => column.name === old.name && column.type === old.type)
  )

  return (
    <form className="docs-form" onSubmit={send} data-testid={testId}>
      {heading && <h3 className="docs-subtitle">{heading}</h3>}
      <label>
        {t('documents.screens.index_name')}
        <input
          value={name}
          maxLength={INDEX_LIMITS.nameMax}
          required
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      {!editing && (
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
      )}
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
                className="link-button"
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
            className="link-button"
            onClick={() => setColumns((current) => [...current, { name: '', type: 'text' }])}
          >
            {t('documents.screens.add_column')}
          </button>
        )}
      </fieldset>
      {dropped.length > 0 && (
        <p className="notice" role="status" data-testid="docs-index-drops">
          {t('documents.screens.index_drops', { columns: dropped.map((c) => c.name).join(', ') })}
        </p>
      )}
      <DialogActions submit={submit} busy={busy} failure={failure} onCancel={onCancel} />
    </form>
  )
}
