import { useTranslation } from 'react-i18next'
import type { FieldRow, FileLink } from '../../lib/consultation.js'
import { foldText } from '../../lib/text_search.js'
import { FileItem } from './FileItem.js'

interface Props {
  rows: readonly FieldRow[]
  linkedDocument: FileLink | null
  query: string
  onPreview: (file: FileLink) => void
}

/** Image, signature and file fields with their files, and the document linked to the process. */
export function DocumentList({ rows, linkedDocument, query, onPreview }: Props) {
  const { t } = useTranslation()
  const linkedLabel = t('consultation.linked_document')
  const wanted = foldText(query.trim())
  const showLinked = linkedDocument !== null && (wanted === '' || foldText(linkedLabel).includes(wanted))
  if (rows.length === 0 && !showLinked) return <p className="muted">{t('consultation.no_documents')}</p>
  return (
    <dl className="consult-fields consult-fields--documents">
      {showLinked && (
        <div className="consult-fields__row" data-field="doc_path_link">
          <dt>{linkedLabel}</dt>
          <dd>
            <ul className="consult-files">
              <FileItem file={linkedDocument} onPreview={onPreview} />
            </ul>
          </dd>
        </div>
      )}
      {rows.map((row) => (
        <div key={row.name} className="consult-fields__row" data-field={row.name}>
          <dt>{row.label}</dt>
          <dd>
            {row.files.length === 0 ? (
              '—'
            ) : (
              <ul className="consult-files">
                {row.files.map((file, index) => (
                  <FileItem key={`${file.url}#${index}`} file={file} onPreview={onPreview} />
                ))}
              </ul>
            )}
            {row.type === 'signature' && row.files.length > 0 && <span className="muted">{row.text}</span>}
          </dd>
        </div>
      ))}
    </dl>
  )
}
