/** Files being uploaded (an indeterminate bar each: the upload service resolves once, with no byte counts) and the refusals. */
import { useTranslation } from 'react-i18next'
import type { Uploader } from './useUploader.js'

export function UploadStatus({ uploader, id }: { uploader: Uploader; id?: string }) {
  const { t } = useTranslation()
  return (
    <>
      {uploader.pending.length > 0 && (
        <ul className="media-pending" aria-live="polite" data-testid="upload-pending">
          {uploader.pending.map((p) => (
            <li key={p.id}>
              <span className="media-pending__name">{p.name}</span>
              <progress aria-label={t('media_ui.uploading', { file: p.name })} />
            </li>
          ))}
        </ul>
      )}
      {uploader.errors.length > 0 && (
        // The alert wraps the list: a role on the <ul> itself would hide that its items are a list.
        <div role="alert" id={id} data-testid="upload-errors">
          <ul className="media-errors">
            {uploader.errors.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  )
}
