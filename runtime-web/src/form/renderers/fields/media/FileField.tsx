/**
 * The `file` field (spec 000 §3, §5 "File upload"): a drop zone (90 px by default) that is also the add
 * button, shown only below ref.limit (-1 unlimited); data.ext allows extensions, the contract's blocklist
 * always refuses; the input takes several files only when the limit is above 1 or unlimited. Files
 * show as thumbnails (preview flag) or a list, open in the preview panel, and are removed while
 * editable. Value: the list of the upload route's entries.
 */
import { lazy, Suspense, useRef, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { canAddFile, checkFileUpload, fileInputMultiple, normalizeExtensions } from '@tramita/contract'
import type { FieldProps, UploadedFile } from '../../../types.js'
import { fileKindOf } from '../../../../lib/preview.js'
import { refusalMessage } from './media_rules.js'
import { useUploader } from './useUploader.js'
import { UploadStatus } from './UploadStatus.js'
import './media.css'
import { StoredImage, StoredLink } from '../../../StoredFile.js'

/** The ID card scan dialog and its texts load only when someone opens it (form route budget). */
const IdCardDialog = lazy(() => import('../../../idcard/IdCardDialog.js'))

export function FileField({
  item,
  value,
  onChange,
  onEvent,
  readOnly,
  disabled,
  inputId,
  services,
}: FieldProps<UploadedFile[]>) {
  const { t } = useTranslation()
  const files = Array.isArray(value) ? value : []
  const limit = item.data.ref.limit
  const allowed = normalizeExtensions(item.data.ext as string[] | undefined)
  const uploader = useUploader(services, 'files', item.field_name)
  const input = useRef<HTMLInputElement>(null)
  const [hover, setHover] = useState(false)
  const [scanning, setScanning] = useState(false)
  // Uploads finish one by one: each adds to the latest list, not to the one this render saw.
  const latest = useRef(files)
  latest.current = files
  const editable = !readOnly && !disabled
  const inFlight = uploader.pending.length
  const canAdd = editable && canAddFile(files.length + inFlight, limit)
  const errorsId = `${inputId}-errors`

  async function take(chosen: File[]) {
    if (!editable || chosen.length === 0) return
    const refusals: string[] = []
    const accepted: File[] = []
    for (const file of chosen) {
      const check = checkFileUpload(
        { name: file.name, mime: file.type },
        {
          allowed,
          limit,
          count: files.length + inFlight + accepted.length,
          allowActiveContent: item.data.allowActiveContent === true,
        }
      )
      if (check.ok) accepted.push(file)
      else {
        const { key, vars } = refusalMessage(check.reason, file.name, allowed)
        refusals.push(t(key, vars))
      }
    }
    uploader.setErrors(refusals)
    await uploader.uploadAll(accepted, (entry) => {
      latest.current = [...latest.current, entry]
      onChange(latest.current)
      onEvent('on_change')
    })
  }

  /** The ID card's joined PDF: added like an upload (the save attaches it to the case). */
  function addScanned(entry: UploadedFile) {
    latest.current = [...latest.current, entry]
    onChange(latest.current)
    onEvent('on_change')
  }

  function remove(entry: UploadedFile) {
    uploader.discard(entry.path)
    latest.current = latest.current.filter((f) => f.path !== entry.path)
    onChange(latest.current)
    onEvent('on_change')
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault()
    setHover(false)
    if (canAdd) void take([...event.dataTransfer.files])
  }

  const preview = item.data.preview !== false
  return (
    // With nothing to add, the field's id goes on the whole so the label and the missing-required jump still land here.
    <div
      className={`media-file${disabled ? ' media--disabled' : ''}`}
      id={canAdd ? undefined : inputId}
      tabIndex={canAdd ? undefined : -1}
      data-testid="file-field"
    >
      {/* The input stays in the page (hidden) so a label, a drop or a test can hand it files. */}
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        multiple={fileInputMultiple(limit)}
        accept={allowed.length ? allowed.map((e) => `.${e}`).join(',') : undefined}
        disabled={!canAdd}
        data-testid="file-input"
        onChange={(event) => {
          const chosen = [...(event.currentTarget.files ?? [])]
          event.currentTarget.value = ''
          void take(chosen)
        }}
      />
      {canAdd ? (
        <button
          type="button"
          id={inputId}
          className={`media-drop${hover ? ' media-drop--over' : ''}`}
          style={{ minHeight: item.data.height }}
          aria-describedby={uploader.errors.length ? errorsId : undefined}
          onClick={() => input.current?.click()}
          onFocus={() => onEvent('on_focus')}
          onBlur={() => onEvent('on_blur')}
          onDragOver={(event) => {
            event.preventDefault()
            setHover(true)
          }}
          onDragLeave={() => setHover(false)}
          onDrop={onDrop}
        >
          <span className="media-drop__icon" aria-hidden="true">
            ⇪
          </span>
          <span>{t('media_ui.file.drop')}</span>
          <span className="media-hint">
            {[
              limit > 0 ? t('media_ui.file.count', { n: files.length, limit }) : '',
              allowed.length ? t('media_ui.file.allowed', { extensions: allowed.join(', ') }) : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </button>
      ) : null}
      {canAdd && item.data.idcard === true && services.endpoint && (
        <button type="button" className="media-button" onClick={() => setScanning(true)} data-testid="idcard-open">
          {t('media_ui.file.idcard')}
        </button>
      )}
      {scanning && (
        <Suspense fallback={null}>
          <IdCardDialog
            field={item.field_name}
            services={services}
            onSave={addScanned}
            onClose={() => setScanning(false)}
          />
        </Suspense>
      )}
      <UploadStatus uploader={uploader} id={errorsId} />
      {files.length === 0 && !canAdd && <p className="media-empty">{t('media_ui.file.none')}</p>}
      {files.length > 0 && (
        <ul
          className={preview ? 'media-thumbs' : 'media-list'}
          aria-label={t('media_ui.file.list')}
          data-testid="file-list"
        >
          {files.map((entry) => {
            const image = fileKindOf(entry.real_name || entry.ext) === 'image'
            return (
              <li key={entry.path} className={preview ? 'media-thumb' : 'media-list__item'} data-file={entry.real_name}>
                {preview && (
                  <button
                    type="button"
                    className="media-thumb__picture"
                    aria-label={t('media_ui.open', { file: entry.real_name })}
                    onClick={() => services.preview({ path: entry.path, real_name: entry.real_name })}
                  >
                    {image ? (
                      <StoredImage services={services} path={entry.path} loading="lazy" />
                    ) : (
                      <span className="media-thumb__ext">{entry.ext.replace(/^\./, '').toUpperCase() || '?'}</span>
                    )}
                  </button>
                )}
                <StoredLink
                  className="media-file__name"
                  services={services}
                  path={entry.path}
                  name={entry.real_name}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={entry.real_name}
                >
                  {entry.real_name}
                </StoredLink>
                <span className="media-file__actions">
                  {!preview && (
                    <button
                      type="button"
                      className="media-link-button"
                      onClick={() => services.preview({ path: entry.path, real_name: entry.real_name })}
                    >
                      {t('media_ui.view')}
                    </button>
                  )}
                  {editable && (
                    <button
                      type="button"
                      className="media-link-button media-link-button--danger"
                      aria-label={t('media_ui.remove_file', { file: entry.real_name })}
                      onClick={() => remove(entry)}
                    >
                      {t('media_ui.remove')}
                    </button>
                  )}
                </span>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
