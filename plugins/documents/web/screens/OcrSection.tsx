/**
 * A file's OCR (issue 20) in its details: the type badge (ocr, digital, other), the latest run's state and
 * pages by result, its progress while it runs, the searchable PDF, and OCR asked for in a mode.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import type { FileRow } from '../../shared/library.js'
import { OCR_MIMES, OCR_MODES, OCR_PAGE_STATES, type OcrMode, type OcrRun } from '../../shared/ocr.js'
import { ocrStatus, startOcr } from '../library/api.js'
import { downloadSearchable } from '../library/files.js'

/** How often a queued or running run is read again while the dialog is open. */
const POLL_MS = 2000

export function OcrSection({ file, onChanged }: { file: FileRow; onChanged(): void }) {
  const { t } = useTranslation()
  const [run, setRun] = useState<OcrRun | null | undefined>(undefined)
  const [mode, setMode] = useState<OcrMode>('skip')
  const supported = (OCR_MIMES as readonly string[]).includes(file.mime)
  const active = run?.state === 'queued' || run?.state === 'running'

  useEffect(() => {
    if (!supported) return
    let stop = false
    const read = () =>
      ocrStatus(file.id).then(
        (answer) => !stop && setRun(answer),
        () => !stop && setRun(null)
      )
    void read()
    return () => {
      stop = true
    }
  }, [file.id, supported])

  // While a run is under way its progress is read again; once it ends the listing is refreshed.
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      void ocrStatus(file.id).then((answer) => {
        setRun(answer)
        if (answer && answer.state !== 'queued' && answer.state !== 'running') onChanged()
      })
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [active, file.id, onChanged])

  if (!supported) return null

  async function start(event: FormEvent) {
    event.preventDefault()
    try {
      setRun(await startOcr(file.id, mode))
      toasts.success(t('documents.ocr.started'))
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  // The run's view is read again as it goes; the row the dialog opened with is not.
  const current = run?.sub_type ?? file.sub_type
  const badge = current === 'ocr' || current === 'digital' ? current : 'other'
  return (
    <section aria-labelledby="docs-ocr-title" data-testid="docs-ocr" className="docs-ocr">
      <h3 id="docs-ocr-title" className="docs-subtitle">
        {t('documents.ocr.title')}{' '}
        <span className={`docs-badge docs-badge--${badge}`} data-testid="docs-ocr-badge">
          {t(`documents.ocr.badge_${badge}`)}
        </span>
      </h3>
      {run === undefined ? (
        <p role="status" aria-busy="true" />
      ) : run === null ? (
        <p className="muted">{t('documents.ocr.never')}</p>
      ) : (
        <div role="status" aria-live="polite" data-testid="docs-ocr-run" data-state={run.state}>
          <p>
            {t(`documents.ocr.state_${run.state}`)} · {t(`documents.ocr.mode_${run.mode}`)}
          </p>
          {active && run.pages !== null && (
            <progress max={run.pages} value={run.pages_done} aria-label={t('documents.ocr.progress')}>
              {t('documents.ocr.pages_done', { done: run.pages_done, pages: run.pages })}
            </progress>
          )}
          {run.pages !== null && (
            <ul className="docs-ocr-details">
              {OCR_PAGE_STATES.filter((state) => run.details[state] > 0).map((state) => (
                <li key={state} data-state={state}>
                  {t(`documents.ocr.pages_${state}`, { count: run.details[state] })}
                </li>
              ))}
            </ul>
          )}
          {run.searchable && (
            <button
              type="button"
              className="link-button"
              onClick={() => void downloadSearchable(file).catch((e: unknown) => toasts.error(errorText(e)))}
            >
              {t('documents.ocr.download')}
            </button>
          )}
        </div>
      )}
      {file.permission === 'all' && !active && (
        <form className="docs-form docs-ocr-form" onSubmit={(event) => void start(event)}>
          <label>
            {t('documents.ocr.mode')}
            <select value={mode} onChange={(event) => setMode(event.target.value as OcrMode)}>
              {OCR_MODES.map((value) => (
                <option key={value} value={value}>
                  {t(`documents.ocr.mode_${value}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            {t('documents.ocr.run')}
          </button>
        </form>
      )}
    </section>
  )
}
