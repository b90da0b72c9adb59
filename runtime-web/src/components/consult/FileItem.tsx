import { useTranslation } from 'react-i18next'
import type { FileLink } from '../../lib/consultation.js'

/** One file: its name opens it; a file with a viewer (lib/preview) also opens in the preview panel. */
export function FileItem({ file, onPreview }: { file: FileLink; onPreview: (file: FileLink) => void }) {
  const { t } = useTranslation()
  return (
    <li className="consult-file" data-kind={file.kind ?? 'other'}>
      <a href={file.url} target="_blank" rel="noopener noreferrer">
        {file.name}
      </a>
      {file.kind && (
        <button
          type="button"
          className="consult-file__preview"
          aria-label={t('consultation.preview_of', { name: file.name })}
          onClick={() => onPreview(file)}
        >
          {file.kind === 'image' ? <img src={file.url} alt="" loading="lazy" /> : null}
          <span>{t('consultation.preview')}</span>
        </button>
      )}
    </li>
  )
}
