/**
 * The library (spec 001 §2): my documents, shared with me, recent and the recycle bin, one screen per
 * view. Folders and files of the folder in `?folder=`, breadcrumbs, a new folder, uploads by button or
 * by dropping files (each with its progress in the panel), downloads, labels, sharing, the recycle bin
 * (restore, empty after a confirmation), the storage used, and a file's preview in the host's
 * draggable viewer.
 */
import { useCallback, useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, NavLink, useLocation, useSearchParams } from 'react-router'
import { Dialog } from '@tramita/web/Dialog'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import { useScreenHost } from '@tramita/web/screen-host'
import { errorText } from '@tramita/web/loading'
import { DialogActions } from '@tramita/web/dialog-form'
import type { FileRow, FolderRow, LibraryListing, LibrarySort, LibraryView, Usage } from '../../shared/library.js'
import { emptyTrash, listView, moveToTrash, rename, restore, type ListOrder, type Selection } from '../library/api.js'
import { downloadFile, previewUrl, uploadFiles } from '../library/files.js'
import { formatBytes, formatDate } from '../library/format.js'
import { DetailsDialog } from './DetailsDialog.js'
import { IndexesDialog } from './IndexesDialog.js'
import { LabelsDialog } from './LabelsDialog.js'
import { ShareDialog } from './ShareDialog.js'
import { TransferPanel } from './TransferPanel.js'
import { NewFolderDialog } from './NewFolderDialog.js'
import { RetentionDialog } from './RetentionDialog.js'
import { SyncPanel } from './SyncPanel.js'
import '@tramita/web/screens.css'
import './library.css'

const VIEWS: { view: LibraryView; to: string; label: string }[] = [
  { view: 'mine', to: '/documents', label: 'documents.screens.mine' },
  { view: 'shared', to: '/documents/shared', label: 'documents.screens.shared' },
  { view: 'recent', to: '/documents/recent', label: 'documents.screens.recent' },
  { view: 'trash', to: '/documents/trash', label: 'documents.screens.trash' },
]

type Item = { kind: 'folder'; row: FolderRow } | { kind: 'file'; row: FileRow }

/** The dialog open over the list, if any. */
type DialogState =
  | null
  | { kind: 'folder' }
  | { kind: 'rename'; item: Item }
  | { kind: 'empty' }
  | { kind: 'labels'; file: FileRow }
  | { kind: 'indexes'; file: FileRow }
  | { kind: 'details'; file: FileRow }
  | { kind: 'share'; item: Item }
  | { kind: 'retention'; item: Item }

export function Library({ view }: { view: LibraryView }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const { FilePreview } = useScreenHost()
  const [params] = useSearchParams()
  const folderParam = Number(params.get('folder'))
  const folder = Number.isInteger(folderParam) && folderParam > 0 ? folderParam : null
  const [listing, setListing] = useState<LibraryListing | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [usage, setUsage] = useState<Usage | null>(null)
  const [order, setOrder] = useState<ListOrder>({ sort: 'name', order: 'asc' })
  const [offset, setOffset] = useState(0)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const [dialog, setDialog] = useState<DialogState>(null)
  const [preview, setPreview] = useState<{ name: string; url: string } | null>(null)
  const [dropping, setDropping] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const { pathname } = useLocation()
  // Opening a folder replaces the rows (and the focused link): focus then moves to where the user is.
  const here = useRef<HTMLSpanElement>(null)
  const opened = useRef<number | null | undefined>(undefined)
  const focusHere = useRef(false)
  const title = t(VIEWS.find((v) => v.view === view)!.label)

  useEffect(() => {
    let live = true
    listView(view, folder, offset, order).then(
      (answer) => {
        if (!live) return
        setListing(answer)
        if (opened.current !== undefined && opened.current !== folder) focusHere.current = true
        opened.current = folder
        setUsage(answer.usage)
        setFailure(null)
      },
      (error: unknown) => live && setFailure(errorText(error))
    )
    return () => {
      live = false
    }
  }, [view, folder, offset, order, reloads])

  // Another folder, view or order starts at its first page.
  useEffect(() => setOffset(0), [view, folder, order])

  // After the new folder's rows are drawn (its name in the breadcrumbs is a new element by then).
  useEffect(() => {
    if (!focusHere.current) return
    focusHere.current = false
    here.current?.focus()
  }, [listing])

  // The preview's object URL is freed when the preview closes or another opens.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview])

  const canWrite = view === 'mine' || (view === 'shared' && listing?.folder?.permission === 'all')
  // My documents and a shared folder sort by a column; the other views keep their own order.
  const sorting = { order, onSort: view === 'mine' || view === 'shared' ? setOrder : null }
  const target = view === 'mine' ? folder : (listing?.folder?.id ?? null)

  async function upload(files: readonly File[]) {
    if (files.length === 0) return
    const outcome = await uploadFiles(files, target)
    if (outcome.usage) setUsage(outcome.usage)
    for (const result of outcome.results) {
      if (result.status === 'refused') toasts.error(`${result.name}: ${result.message}`)
    }
    for (const failed of new Set(outcome.failures)) toasts.error(failed)
    const stored = outcome.results.filter((result) => result.status === 'stored').length
    if (stored > 0) toasts.success(t('documents.screens.uploaded', { count: stored }))
    reload()
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault()
    setDropping(false)
    if (canWrite) void upload([...event.dataTransfer.files])
  }

  async function act(work: () => Promise<unknown>, done?: string) {
    try {
      await work()
      if (done) toasts.success(done)
    } catch (error) {
      toasts.error(errorText(error))
    }
    reload()
  }

  const selection = (item: Item): Selection =>
    item.kind === 'file' ? { files: [item.row.id], folders: [] } : { files: [], folders: [item.row.id] }

  async function open(file: FileRow) {
    try {
      setPreview({ name: file.name, url: await previewUrl(file) })
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  const items: Item[] = listing
    ? [
        ...listing.folders.map((row) => ({ kind: 'folder' as const, row })),
        ...listing.files.map((row) => ({ kind: 'file' as const, row })),
      ]
    : []

  return (
    <Page title={title} testId={`docs-${view}`}>
      <nav className="docs-views" aria-label={t('documents.screens.views')}>
        {VIEWS.map((v) => (
          <NavLink key={v.view} to={v.to} end className="docs-views__link">
            {t(v.label)}
          </NavLink>
        ))}
      </nav>

      {usage && <UsageMeter usage={usage} language={language} />}

      {listing && listing.breadcrumbs.length > 0 && (
        <nav aria-label={t('documents.screens.breadcrumbs')} className="docs-crumbs" data-testid="docs-crumbs">
          <ol>
            {listing.breadcrumbs.map((crumb, index) => (
              <li key={crumb.id ?? 'top'}>
                {index === listing.breadcrumbs.length - 1 ? (
                  <span aria-current="page" tabIndex={-1} ref={here}>
                    {crumb.id === null ? title : crumb.name}
                  </span>
                ) : (
                  <Link to={crumb.id === null ? pathname : `${pathname}?folder=${crumb.id}`}>
                    {crumb.id === null ? title : crumb.name}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}

      {listing?.folder?.type === 'synchronized' && view !== 'trash' && (
        <SyncPanel key={listing.folder.id} folderId={listing.folder.id} canWrite={canWrite} />
      )}

      <div className="screen-toolbar">
        {canWrite && (
          <>
            <button type="button" className="button" onClick={() => setDialog({ kind: 'folder' })}>
              {t('documents.screens.new_folder')}
            </button>
            <button type="button" className="button" onClick={() => input.current?.click()}>
              {t('documents.screens.upload')}
            </button>
            <input
              ref={input}
              type="file"
              multiple
              hidden
              data-testid="docs-upload-input"
              onChange={(event) => {
                const files = [...(event.currentTarget.files ?? [])]
                event.currentTarget.value = ''
                void upload(files)
              }}
            />
          </>
        )}
        {view === 'trash' && items.length > 0 && (
          <button type="button" className="button button--danger" onClick={() => setDialog({ kind: 'empty' })}>
            {t('documents.screens.empty_trash')}
          </button>
        )}
      </div>

      <section
        className="docs-list"
        data-dropping={dropping || undefined}
        data-testid="docs-list"
        aria-busy={listing === null && failure === null}
        aria-label={canWrite ? t('documents.screens.drop_here') : title}
        onDragOver={(event) => {
          if (!canWrite || !event.dataTransfer.types.includes('Files')) return
          event.preventDefault()
          setDropping(true)
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={onDrop}
      >
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
        {listing && items.length === 0 && (
          <p className="muted" data-testid="docs-empty">
            {t(view === 'trash' ? 'documents.screens.trash_empty' : 'documents.screens.folder_empty')}
            {canWrite && ` ${t('documents.screens.drop_hint')}`}
          </p>
        )}
        {items.length > 0 && (
          <table className="data-table docs-table">
            <thead>
              <tr>
                <SortableHeader column="name" label={t('documents.screens.name')} {...sorting} />
                <SortableHeader column="size" label={t('documents.screens.size')} {...sorting} />
                <SortableHeader
                  column="date"
                  label={t(
                    view === 'trash'
                      ? 'documents.screens.trashed_at'
                      : view === 'recent'
                        ? 'documents.screens.opened_at'
                        : 'documents.screens.modified'
                  )}
                  {...sorting}
                />
                <th scope="col">{t('documents.screens.labels')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('documents.screens.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <Row
                  key={`${item.kind}:${item.row.id}`}
                  item={item}
                  view={view}
                  language={language}
                  onOpen={open}
                  onDownload={(file) => act(() => downloadFile(file))}
                  onTrash={(it) => act(() => moveToTrash(selection(it)), t('documents.screens.trashed'))}
                  onRestore={(it) => act(() => restore(selection(it)), t('documents.screens.restored'))}
                  onLabels={(file) => setDialog({ kind: 'labels', file })}
                  onIndexes={(file) => setDialog({ kind: 'indexes', file })}
                  onDetails={(file) => setDialog({ kind: 'details', file })}
                  onShare={(it) => setDialog({ kind: 'share', item: it })}
                  onRename={(it) => setDialog({ kind: 'rename', item: it })}
                  onRetention={
                    listing?.can_assign_retention ? (it) => setDialog({ kind: 'retention', item: it }) : null
                  }
                />
              ))}
            </tbody>
          </table>
        )}
        {listing && listing.total > listing.limit && (
          <nav className="docs-pager" aria-label={t('documents.screens.pages')} data-testid="docs-pager">
            <button
              type="button"
              className="button"
              disabled={listing.offset === 0}
              onClick={() => setOffset(Math.max(0, listing.offset - listing.limit))}
            >
              {t('documents.screens.previous')}
            </button>
            <span role="status">
              {t('documents.screens.page_range', {
                from: listing.offset + 1,
                to: Math.min(listing.offset + listing.limit, listing.total),
                total: listing.total,
              })}
            </span>
            <button
              type="button"
              className="button"
              disabled={listing.offset + listing.limit >= listing.total}
              onClick={() => setOffset(listing.offset + listing.limit)}
            >
              {t('documents.screens.next')}
            </button>
          </nav>
        )}
      </section>

      {dialog?.kind === 'folder' && (
        <NewFolderDialog
          parent={target}
          onClose={() => setDialog(null)}
          onMade={() => {
            toasts.success(t('documents.screens.folder_made'))
            setDialog(null)
            reload()
          }}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('documents.screens.rename_title', { name: dialog.item.row.name })}
          label={t('documents.screens.new_name')}
          submit={t('documents.screens.rename')}
          initial={dialog.item.row.name}
          testId="docs-rename-dialog"
          onClose={() => setDialog(null)}
          onSave={async (name) => {
            await rename(dialog.item.kind, dialog.item.row.id, name)
            toasts.success(t('documents.screens.renamed'))
          }}
          onSaved={() => {
            setDialog(null)
            reload()
          }}
        />
      )}
      {dialog?.kind === 'empty' && (
        <Dialog
          className="docs-dialog"
          title={t('documents.screens.empty_trash')}
          onClose={() => setDialog(null)}
          testId="docs-empty-dialog"
        >
          <p>{t('documents.screens.empty_confirm')}</p>
          <div className="dialog__actions">
            <button type="button" className="button button--quiet" onClick={() => setDialog(null)}>
              {t('documents.screens.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                setDialog(null)
                void act(async () => setUsage((await emptyTrash()).usage), t('documents.screens.emptied'))
              }}
            >
              {t('documents.screens.empty_now')}
            </button>
          </div>
        </Dialog>
      )}
      {dialog?.kind === 'labels' && (
        <LabelsDialog
          file={dialog.file}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null)
            reload()
          }}
        />
      )}
      {dialog?.kind === 'retention' && (
        <RetentionDialog
          target={{ type: dialog.item.kind, id: dialog.item.row.id, name: dialog.item.row.name }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'indexes' && <IndexesDialog file={dialog.file} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'details' && (
        <DetailsDialog file={dialog.file} onClose={() => setDialog(null)} onChanged={reload} />
      )}
      {dialog?.kind === 'share' && (
        <ShareDialog
          type={dialog.item.kind}
          id={dialog.item.row.id}
          name={dialog.item.row.name}
          onClose={() => setDialog(null)}
        />
      )}
      {preview && <FilePreview file={preview} onClose={() => setPreview(null)} />}
      <TransferPanel />
    </Page>
  )
}

/** A column's header: a button that sorts by it (again: the other way), its state in aria-sort. */
function SortableHeader({
  column,
  label,
  order,
  onSort,
}: {
  column: LibrarySort
  label: string
  order: ListOrder
  onSort: ((order: ListOrder) => void) | null
}) {
  if (!onSort) return <th scope="col">{label}</th>
  const active = order.sort === column
  const ascending = !active || order.order === 'asc'
  return (
    <th scope="col" aria-sort={active ? (ascending ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="docs-sort"
        onClick={() => onSort({ sort: column, order: active && ascending ? 'desc' : 'asc' })}
      >
        {label}
        <span aria-hidden="true">{active ? (ascending ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  )
}

function UsageMeter({ usage, language }: { usage: Usage; language: string }) {
  const { t } = useTranslation()
  const used = formatBytes(usage.used, language)
  const full = usage.quota > 0 && usage.used >= usage.quota
  return (
    <p className="docs-usage" data-testid="docs-usage">
      {usage.quota > 0 ? (
        <>
          <meter min={0} max={usage.quota} value={usage.used} aria-label={t('documents.screens.storage')} />{' '}
          {t('documents.screens.usage', { used, quota: formatBytes(usage.quota, language) })}
        </>
      ) : (
        t('documents.screens.usage_unlimited', { used })
      )}
      {full && (
        <strong className="docs-usage__full" role="status">
          {' '}
          {t('documents.insufficient_storage')}
        </strong>
      )}
    </p>
  )
}

interface RowProps {
  item: Item
  view: LibraryView
  language: string
  onOpen(file: FileRow): void
  onDownload(file: FileRow): void
  onTrash(item: Item): void
  onRestore(item: Item): void
  onLabels(file: FileRow): void
  onIndexes(file: FileRow): void
  onDetails(file: FileRow): void
  onShare(item: Item): void
  onRename(item: Item): void
  /** Only for those who manage retention schedules. */
  onRetention: ((item: Item) => void) | null
}

function Row({
  item,
  view,
  language,
  onOpen,
  onDownload,
  onTrash,
  onRestore,
  onLabels,
  onIndexes,
  onDetails,
  onShare,
  onRename,
  onRetention,
}: RowProps) {
  const { t } = useTranslation()
  const { row } = item
  const when =
    view === 'trash' ? row.trashed_at : view === 'recent' && item.kind === 'file' ? item.row.opened_at : row.updated_at
  const name = row.name
  return (
    <tr data-testid={`docs-${item.kind}`} data-name={name}>
      <td className="docs-table__name">
        {item.kind === 'folder' ? (
          view === 'trash' ? (
            <span>📁 {name}</span>
          ) : (
            <Link to={`?folder=${row.id}`}>📁 {name}</Link>
          )
        ) : view === 'trash' ? (
          <span>{name}</span>
        ) : (
          <button type="button" className="link-button docs-link" onClick={() => onOpen(item.row)}>
            {name}
          </button>
        )}
        {item.kind === 'file' && item.row.archived_at && (
          <span className="docs-archived" data-testid="docs-archived">
            {t('documents.screens.archived')}
          </span>
        )}
      </td>
      <td>{item.kind === 'file' && <FileFacts file={item.row} language={language} />}</td>
      <td>{formatDate(when, language)}</td>
      <td>
        {item.kind === 'file' &&
          item.row.labels.map((label) => (
            <span key={label.id} className="docs-label" style={{ borderColor: label.color }}>
              <span className="docs-label__dot" style={{ background: label.color }} aria-hidden="true" />
              {label.name}
            </span>
          ))}
      </td>
      <td className="docs-table__actions">
        {view === 'trash' ? (
          <button type="button" className="link-button" onClick={() => onRestore(item)}>
            {t('documents.screens.restore')}
            <span className="visually-hidden"> {name}</span>
          </button>
        ) : (
          <>
            {item.kind === 'file' && (
              <>
                <button type="button" className="link-button" onClick={() => onDownload(item.row)}>
                  {t('documents.screens.download')}
                  <span className="visually-hidden"> {name}</span>
                </button>
                <button type="button" className="link-button" onClick={() => onLabels(item.row)}>
                  {t('documents.screens.labels')}
                  <span className="visually-hidden"> {name}</span>
                </button>
                <button type="button" className="link-button" onClick={() => onIndexes(item.row)}>
                  {t('documents.screens.indexes')}
                  <span className="visually-hidden"> {name}</span>
                </button>
                <button type="button" className="link-button" onClick={() => onDetails(item.row)}>
                  {t('documents.screens.details')}
                  <span className="visually-hidden"> {name}</span>
                </button>
              </>
            )}
            {view === 'mine' && (
              <button type="button" className="link-button" onClick={() => onShare(item)}>
                {t('documents.screens.share')}
                <span className="visually-hidden"> {name}</span>
              </button>
            )}
            {(view === 'mine' || row.permission === 'all') && (
              <button type="button" className="link-button" onClick={() => onRename(item)}>
                {t('documents.screens.rename')}
                <span className="visually-hidden"> {name}</span>
              </button>
            )}
            {(view === 'mine' || row.permission === 'all') && (
              <button type="button" className="link-button" onClick={() => onTrash(item)}>
                {t('documents.screens.move_to_trash')}
                <span className="visually-hidden"> {name}</span>
              </button>
            )}
            {onRetention && (
              <button type="button" className="link-button" onClick={() => onRetention(item)}>
                {t('documents.retention.row_action')}
                <span className="visually-hidden"> {name}</span>
              </button>
            )}
          </>
        )}
      </td>
    </tr>
  )
}

interface NameDialogProps {
  title: string
  label: string
  submit: string
  initial?: string
  testId: string
  onClose(): void
  /** Saves the name; a refusal is shown and the dialog stays open with the name typed. */
  onSave(name: string): Promise<void>
  onSaved(): void
}

/** A name to type (a new folder's, a new name): kept open with what was typed when the server refuses it. */
function NameDialog({ title, label, submit, initial = '', testId, onClose, onSave, onSaved }: NameDialogProps) {
  const [name, setName] = useState(initial)
  const [busy, setBusy] = useState(false)
  async function send(event: FormEvent) {
    event.preventDefault()
    if (!name.trim() || busy) return
    setBusy(true)
    try {
      await onSave(name.trim())
      onSaved()
    } catch (error) {
      toasts.error(errorText(error))
      setBusy(false)
    }
  }
  return (
    <Dialog className="docs-dialog" title={title} onClose={onClose} testId={testId}>
      <form onSubmit={send} className="docs-form">
        <label>
          {label}
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={255} required />
        </label>
        <DialogActions submit={submit} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** A file's facts beside its size (spec 001 §3): pages, and the OCR badge or the OCR under way. */
function FileFacts({ file, language }: { file: FileRow; language: string }) {
  const { t } = useTranslation()
  const running = file.ocr_state === 'pending' || file.ocr_state === 'running'
  const badge = file.sub_type === 'ocr' || file.sub_type === 'digital' ? file.sub_type : null
  return (
    <span className="docs-facts">
      {formatBytes(file.size, language)}
      {file.pages !== null && <span> · {t('documents.screens.pages_n', { count: file.pages })}</span>}
      {running ? (
        <span className="docs-badge" data-testid="docs-ocr-state">
          {t('documents.ocr.state_running')}
        </span>
      ) : (
        badge && (
          <span className={`docs-badge docs-badge--${badge}`} data-testid="docs-ocr-state">
            {t(`documents.ocr.badge_${badge}`)}
          </span>
        )
      )}
    </span>
  )
}
