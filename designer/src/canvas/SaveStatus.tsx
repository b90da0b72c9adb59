/**
 * Whether the draft on the server is the one on screen (saved, waiting, saving, failed), the problems
 * the server found in it, and Publish, which shows the server's problems when it refuses.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DesignDocument } from '../model/index.js'
import { JsonCallError } from '@tramita/web/json-call'
import { designerApi } from '../lib/designer_api.js'
import type { DraftSaver } from './use_draft_saver.js'

type Publication =
  | { state: 'idle' }
  | { state: 'publishing' }
  | { state: 'published'; version: number }
  | { state: 'refused'; message: string; problems: { path: string; message: string }[] }

export function SaveStatus(props: {
  formId: number
  doc: DesignDocument
  saver: DraftSaver
  opened: number
  /** Told the number of a version just published. */
  onPublished?: (version: number) => void
}) {
  const { formId, doc, saver } = props
  const { t } = useTranslation()
  // The server's count once a draft is saved; until then the model's, on the document as opened.
  const problems = saver.problems ?? props.opened
  const [publication, setPublication] = useState<Publication>({ state: 'idle' })
  const publish = () => {
    setPublication({ state: 'publishing' })
    designerApi.publish(formId).then(
      ({ version }) => {
        setPublication({ state: 'published', version })
        props.onPublished?.(version)
      },
      (error: unknown) =>
        setPublication({
          state: 'refused',
          message: error instanceof Error ? error.message : String(error),
          problems: error instanceof JsonCallError ? error.problems : [],
        })
    )
  }
  return (
    <div className="status">
      <h1>{doc.name}</h1>
      <span className={`save save--${saver.state}`} data-testid="save-status" data-state={saver.state} role="status">
        {t(`save_${saver.state}`)}
        {saver.state === 'failed' && saver.error ? `: ${saver.error}` : ''}
      </span>
      <span className={problems ? 'notice notice--error' : 'notice'} data-testid="problems">
        {problems ? t('problems', { count: problems }) : t('no_problems')}
      </span>
      <button
        type="button"
        onClick={publish}
        disabled={saver.state !== 'saved' || publication.state === 'publishing'}
        data-testid="publish"
      >
        {t('publish')}
      </button>
      {publication.state === 'published' && (
        <span className="notice" data-testid="published">
          {t('published', { version: publication.version })}
        </span>
      )}
      {publication.state === 'refused' && (
        <div className="notice notice--error" role="alert" data-testid="publish-refused">
          {publication.message}
          <ul>
            {publication.problems.map((problem) => (
              <li key={`${problem.path} ${problem.message}`}>
                <code>{problem.path}</code> {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
