/**
 * The indexes screen (spec 001 §3), /documents/indexes: every index with its columns and sub-indexes,
 * a new one (at the top level or under one), and for each the caller may change (its creator or a
 * superuser: the server's `can_change`, the rule its routes apply) a new name and columns, or deletion
 * after a confirmation. Every signed-in user lists and makes indexes, as the routes allow. A refusal is
 * the server's message, shown in the dialog that asked.
 */
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import type { IndexRow } from '../../shared/indexes.js'
import { createIndex, indexes as listIndexes, removeIndex, updateIndex } from '../library/api.js'
import { errorText } from '../library/format.js'
import { DialogActions, useAttempt } from './DialogActions.js'
import { fullName, IndexForm } from './IndexForm.js'
import './library.css'

/** The dialog open over the list, if any. */
type Open = null | { kind: 'new' } | { kind: 'edit'; index: IndexRow } | { kind: 'remove'; index: IndexRow }

export default function IndexAdmin() {
  const { t } = useTranslation()
  const [all, setAll] = useState<IndexRow[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [open, setOpen] = useState<Open>(null)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])

  useEffect(() => {
    let live = true
    listIndexes().then(
      (rows) => {
        if (!live) return
        setAll(rows)
        setFailure(null)
      },
      (error: unknown) => live && setFailure(errorText(error))
    )
    return () => {
      live = false
    }
  }, [reloads])

  /** A change went through: the dialog closes, the list is read again. */
  function done(message: string) {
    setOpen(null)
    toasts.success(message)
    reload()
  }

  const close = () => setOpen(null)
  const card = (index: IndexRow) => (
    <IndexCard
      index={index}
      name={fullName(index, all ?? [])}
      onEdit={() => setOpen({ kind: 'edit', index })}
      onRemove={() => setOpen({ kind: 'remove', index })}
    />
  )

  return (
    <Page title={t('documents.screens.index_admin')} testId="docs-index-admin">
      <div className="docs-toolbar">
        <button type="button" className="button" disabled={all === null} onClick={() => setOpen({ kind: 'new' })}>
          {t('documents.screens.new_index')}
        </button>
      </div>
      <section
        aria-label={t('documents.screens.index_admin')}
        aria-busy={all === null && failure === null}
        data-testid="docs-index-list"
      >
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
        {all?.length === 0 && <p className="muted">{t('documents.screens.no_indexes')}</p>}
        {all && all.length > 0 && (
          <ul className="docs-indexes">
            {all
              .filter((index) => index.parent_id === null)
              .map((index) => {
                const subs = all.filter((sub) => sub.parent_id === index.id)
                return (
                  <li key={index.id}>
                    {card(index)}
                    {subs.length > 0 && (
                      <ul
                        className="docs-indexes docs-indexes--sub"
                        aria-label={t('documents.screens.sub_indexes_of', { name: index.name })}
                      >
                        {subs.map((sub) => (
                          <li key={sub.id}>{card(sub)}</li>
                        ))}
                      </ul>
                    )}
                  </li>
                )
              })}
          </ul>
        )}
      </section>

      {open?.kind === 'new' && all && (
        <Dialog
          className="docs-dialog"
          title={t('documents.screens.new_index')}
          onClose={close}
          testId="docs-new-index-dialog"
        >
          <IndexForm
            all={all}
            submit={t('documents.screens.create')}
            testId="docs-new-index"
            onSubmit={async (draft) => {
              await createIndex(draft.name, draft.parent, draft.columns)
              done(t('documents.screens.index_made'))
            }}
            onCancel={close}
          />
        </Dialog>
      )}
      {open?.kind === 'edit' && all && (
        <Dialog
          className="docs-dialog"
          title={t('documents.screens.edit_index_title', { name: fullName(open.index, all) })}
          onClose={close}
          testId="docs-edit-index-dialog"
        >
          <IndexForm
            all={all}
            editing={open.index}
            submit={t('documents.screens.save')}
            testId="docs-edit-index"
            onSubmit={async (draft) => {
              await updateIndex(open.index.id, draft.name, draft.columns)
              done(t('documents.screens.index_changed'))
            }}
            onCancel={close}
          />
        </Dialog>
      )}
      {open?.kind === 'remove' && all && (
        <RemoveDialog
          name={fullName(open.index, all)}
          onClose={close}
          onRemove={async () => {
            await removeIndex(open.index.id)
            done(t('documents.screens.index_deleted'))
          }}
        />
      )}
    </Page>
  )
}

/** One index: its name, its columns with their types, and what the caller may do with it. */
function IndexCard({
  index,
  name,
  onEdit,
  onRemove,
}: {
  index: IndexRow
  /** With its parent's, for the buttons' names: two sub-indexes may share one. */
  name: string
  onEdit(): void
  onRemove(): void
}) {
  const { t } = useTranslation()
  const Heading = index.parent_id === null ? 'h2' : 'h3'
  return (
    <article className="docs-index" data-testid="docs-index" data-name={index.name}>
      <div className="docs-index__head">
        <Heading>{index.name}</Heading>
        {index.can_change && (
          <span className="docs-index__actions">
            <button type="button" className="docs-action" onClick={onEdit}>
              {t('documents.screens.edit')}
              <span className="docs-sr"> {name}</span>
            </button>
            <button type="button" className="docs-action" onClick={onRemove}>
              {t('documents.screens.delete')}
              <span className="docs-sr"> {name}</span>
            </button>
          </span>
        )}
      </div>
      <ul className="docs-index__columns" aria-label={t('documents.screens.columns_of', { name })}>
        {index.columns.map((column) => (
          <li key={column.name}>
            {column.name} <span className="muted">· {t(`documents.screens.type_${column.type}`)}</span>
          </li>
        ))}
      </ul>
    </article>
  )
}

/** Deleting an index, once confirmed; a refusal is shown here. */
function RemoveDialog({ name, onClose, onRemove }: { name: string; onClose(): void; onRemove(): Promise<void> }) {
  const { t } = useTranslation()
  const { failure, busy, attempt } = useAttempt()
  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.delete_index_title', { name })}
      onClose={onClose}
      testId="docs-delete-index-dialog"
    >
      <form
        className="docs-form"
        onSubmit={(event) => {
          event.preventDefault()
          void attempt(onRemove)
        }}
      >
        <p>{t('documents.screens.delete_index_confirm')}</p>
        <DialogActions submit={t('documents.screens.delete')} busy={busy} failure={failure} danger onCancel={onClose} />
      </form>
    </Dialog>
  )
}
