/**
 * The indexes screen (spec 001 §3), /documents/indexes: every index with its columns and sub-indexes,
 * a new one (at the top level or under one), and for each the caller may change (its creator or a
 * superuser: the server's `can_change`, the rule its routes apply) a new name and columns, or deletion
 * after a confirmation. Every signed-in user lists and makes indexes, as the routes allow. A refusal is
 * the server's message, shown in the dialog that asked.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import { useLoaded } from '@tramita/web/loading'
import { ConfirmDialog } from '@tramita/web/dialog-form'
import type { IndexRow } from '../../shared/indexes.js'
import { createIndex, indexes as listIndexes, removeIndex, updateIndex } from '../library/api.js'
import { fullName, IndexForm } from './IndexForm.js'
import '@tramita/web/screens.css'
import './library.css'

/** The dialog open over the list, if any. */
type Open = null | { kind: 'new' } | { kind: 'edit'; index: IndexRow } | { kind: 'remove'; index: IndexRow }

export default function IndexAdmin() {
  const { t } = useTranslation()
  const { value: all, failure, reload } = useLoaded(listIndexes)
  const [open, setOpen] = useState<Open>(null)

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
      <div className="screen-toolbar">
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
        <ConfirmDialog
          title={t('documents.screens.delete_index_title', { name: fullName(open.index, all) })}
          question={t('documents.screens.delete_index_confirm')}
          action={t('documents.screens.delete')}
          testId="docs-delete-index-dialog"
          onClose={close}
          onConfirm={async () => {
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
            <button type="button" className="link-button" onClick={onEdit}>
              {t('documents.screens.edit')}
              <span className="visually-hidden"> {name}</span>
            </button>
            <button type="button" className="link-button" onClick={onRemove}>
              {t('documents.screens.delete')}
              <span className="visually-hidden"> {name}</span>
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
