/**
 * A file's history and conversation (spec 001 §3, §9): its versions (download any, restore an older one,
 * upload a new one) and the last five comments, with a field to add one.
 */
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import { LIBRARY_LIMITS, type CommentRow, type FileRow, type VersionRow } from '../../shared/library.js'
import { addComment, comments as listComments, restoreVersion, versions as listVersions } from '../library/api.js'
import { downloadFile, uploadFiles } from '../library/files.js'
import { formatBytes, formatDate } from '../library/format.js'
import { OcrSection } from './OcrSection.js'

export function DetailsDialog({ file, onClose, onChanged }: { file: FileRow; onClose(): void; onChanged(): void }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const [versions, setVersions] = useState<VersionRow[] | null>(null)
  const [comments, setComments] = useState<CommentRow[]>([])
  const [text, setText] = useState('')
  const picker = useRef<HTMLInputElement>(null)
  const writable = file.permission === 'all'

  function load() {
    Promise.all([listVersions(file.id), listComments(file.id)]).then(
      ([v, c]) => {
        setVersions(v)
        setComments(c)
      },
      (error: unknown) => {
        toasts.error(errorText(error))
        setVersions([])
      }
    )
  }
  useEffect(load, [file.id])

  async function restore(version: VersionRow) {
    try {
      await restoreVersion(file.id, version.number)
      toasts.success(t('documents.screens.version_restored', { n: version.number }))
      load()
      onChanged()
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0]
    event.target.value = ''
    if (!chosen) return
    const outcome = await uploadFiles([chosen], null, file.id)
    const refused = outcome.results.find((result) => result.status !== 'stored')
    const failure = outcome.failures[0] ?? (refused && 'message' in refused ? refused.message : undefined)
    if (failure) toasts.error(failure)
    else toasts.success(t('documents.screens.version_uploaded'))
    load()
    onChanged()
  }

  async function comment(event: FormEvent) {
    event.preventDefault()
    if (!text.trim()) return
    try {
      setComments(await addComment(file.id, text.trim()))
      setText('')
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.details_of', { name: file.name })}
      onClose={onClose}
      testId="docs-details-dialog"
    >
      {versions === null ? (
        <p role="status" aria-busy="true" />
      ) : (
        <>
          <section aria-labelledby="docs-versions-title">
            <h3 id="docs-versions-title" className="docs-subtitle">
              {t('documents.screens.versions')}
            </h3>
            <ol className="docs-versions" data-testid="docs-versions">
              {versions.map((version) => (
                <li key={version.number} data-number={version.number}>
                  <span>
                    <strong>{t('documents.screens.version_n', { n: version.number })}</strong>
                    {version.current && <em> · {t('documents.screens.current')}</em>}
                  </span>
                  <span className="muted">
                    {formatBytes(version.size, language)} · {formatDate(version.created_at, language)}
                    {version.created_by && ` · ${version.created_by.name}`}
                  </span>
                  <span className="docs-versions__actions">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() =>
                        void downloadFile(file, version.number).catch((e: unknown) => toasts.error(errorText(e)))
                      }
                    >
                      {t('documents.screens.download_version', { n: version.number })}
                    </button>
                    {writable && !version.current && (
                      <button type="button" className="link-button" onClick={() => void restore(version)}>
                        {t('documents.screens.restore_version', { n: version.number })}
                      </button>
                    )}
                  </span>
                </li>
              ))}
            </ol>
            {writable && (
              <>
                <button type="button" className="button" onClick={() => picker.current?.click()}>
                  {t('documents.screens.new_version')}
                </button>
                <input ref={picker} type="file" hidden onChange={(event) => void upload(event)} />
              </>
            )}
          </section>
          <OcrSection file={file} onChanged={onChanged} />
          <section aria-labelledby="docs-comments-title">
            <h3 id="docs-comments-title" className="docs-subtitle">
              {t('documents.screens.comments')}
            </h3>
            {comments.length === 0 && <p className="muted">{t('documents.screens.no_comments')}</p>}
            <ul className="docs-comments" data-testid="docs-comments">
              {comments.map((row) => (
                <li key={row.id}>
                  <span className="muted">
                    {row.author?.name ?? ''} · {formatDate(row.created_at, language)}
                  </span>
                  <p>{row.text}</p>
                </li>
              ))}
            </ul>
            <form className="docs-form" onSubmit={comment}>
              <label>
                {t('documents.screens.new_comment')}
                <textarea
                  value={text}
                  rows={2}
                  maxLength={LIBRARY_LIMITS.commentMax}
                  onChange={(event) => setText(event.target.value)}
                />
              </label>
              <button type="submit" className="button">
                {t('documents.screens.add_comment')}
              </button>
            </form>
          </section>
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
