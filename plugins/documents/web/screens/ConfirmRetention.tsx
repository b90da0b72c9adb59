/**
 * The retention confirmation screen, /confirmretention?code=…&user=… (spec 000 §2, 001 §2, §4, §7): the
 * conservation card of the document whose retention ended (preview, type badge, name, weight, last
 * modification, pages, the OCR counts, the retention data and labels) and its two actions, each after
 * a confirmation. A success says so and goes home after 2 s; a refusal (a code used, expired or not
 * this person's) is the server's message. Opened from a mail, without signing in: the code is the key.
 */
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { Page } from '@tramita/web/Page'
import { errorText } from '@tramita/web/loading'
import { RETENTION_LIMITS, type ConservationCard, type Disposition } from '../../shared/retention.js'
import { confirmRetention, conservationCard } from '../library/retention_api.js'
import { formatBytes, formatDate } from '../library/format.js'
import { Facts, LabelChips } from './RetentionParts.js'
import '@tramita/web/screens.css'
import './library.css'
import './retention.css'

type State =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'card'; card: ConservationCard }
  | { kind: 'done'; option: Disposition }

/** The preview's address on this origin (the server answers an absolute one). */
function localUrl(url: string): string {
  try {
    const parsed = new URL(url, window.location.href)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

export default function ConfirmRetention() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const code = params.get('code') ?? ''
  const user = params.get('user') ?? ''
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    if (!code || !user) {
      setState({ kind: 'failed', message: t('documents.retention.incomplete') })
      return
    }
    let live = true
    conservationCard(code, user).then(
      (card) => live && setState({ kind: 'card', card }),
      (error: unknown) => live && setState({ kind: 'failed', message: errorText(error) })
    )
    return () => {
      live = false
    }
    // The code and user are the page: read once for them (t only names the incomplete link).
  }, [code, user])

  // Spec 001 §4, §9: home 2 s after a success.
  const finished = state.kind === 'done'
  useEffect(() => {
    if (!finished) return
    const timer = setTimeout(() => window.location.assign('/'), RETENTION_LIMITS.redirectMs)
    return () => clearTimeout(timer)
  }, [finished])

  return (
    <Page title={t('documents.retention.title')} testId="retention-confirm">
      <div className="retention">
        {state.kind === 'loading' && (
          <p role="status" aria-busy="true">
            {t('documents.retention.loading')}
          </p>
        )}
        {state.kind === 'failed' && (
          <p role="alert" className="notice notice--error" data-testid="retention-failed">
            {state.message}
          </p>
        )}
        {state.kind === 'done' && (
          <p role="status" className="notice notice--ok" data-testid="retention-done">
            {t(state.option === 'delete' ? 'documents.retention.deleted' : 'documents.retention.archived')}
          </p>
        )}
        {state.kind === 'card' && (
          <>
            <Card card={state.card} />
            <Decision
              name={state.card.name}
              onConfirm={async (option) => {
                await confirmRetention(code, user, option)
                setState({ kind: 'done', option })
              }}
            />
          </>
        )}
      </div>
    </Page>
  )
}

/** Spec 001 §2, §3: the conservation card. */
function Card({ card }: { card: ConservationCard }) {
  const { t, i18n } = useTranslation()
  const language = i18n.language
  const number = (n: number) => new Intl.NumberFormat(language).format(n)
  const unknown = t('documents.retention.unknown')
  const facts: [string, string][] = [
    [t('documents.retention.weight'), formatBytes(card.weight, language)],
    [t('documents.retention.last_modification'), formatDate(card.last_modification, language) || unknown],
    [t('documents.retention.total_pages'), card.total_page === null ? unknown : number(card.total_page)],
    [t('documents.retention.pages_skipped'), number(card.pages.skipped)],
    [t('documents.retention.pages_ocr'), number(card.pages.with_ocr)],
    [t('documents.retention.pages_without_ocr'), number(card.pages.without_ocr)],
    [t('documents.retention.pages_errors'), number(card.pages.errors)],
  ]
  const retention: [string, string][] = [
    [t('documents.retention.code'), card.retention.code],
    [t('documents.retention.serie'), card.retention.serie],
    [t('documents.retention.subserie'), card.retention.subserie || unknown],
    [t('documents.retention.doc_type'), card.retention.doc_type || unknown],
    [t('documents.retention.disposition'), t(`documents.retention.disposition_${card.retention.disposition}`)],
  ]
  return (
    <article className="retention__card" aria-labelledby="retention-card-name" data-testid="retention-card">
      <Preview card={card} />
      <div className="retention__facts">
        <p className="retention__kind">
          <span className="retention__badge" data-testid="retention-badge">
            <span className="visually-hidden">{t('documents.retention.type')}: </span>
            {t(`documents.ocr.badge_${card.sub_type}`)}
          </span>
          <span className="muted">{t('documents.retention.card')}</span>
        </p>
        <h2 id="retention-card-name" className="retention__name">
          {card.name}
        </h2>
        <Facts facts={facts} />
        <h3 className="docs-subtitle">{t('documents.retention.retention_data')}</h3>
        <Facts facts={retention} testId="retention-data" />
        <h3 className="docs-subtitle">{t('documents.retention.labels')}</h3>
        {card.labels.length === 0 ? (
          <p className="muted">{t('documents.retention.no_labels')}</p>
        ) : (
          <LabelChips labels={card.labels} />
        )}
        <p className="muted">{t('documents.retention.expires', { date: formatDate(card.expires_at, language) })}</p>
      </div>
    </article>
  )
}

/** The document itself: an image or a PDF in the card, anything else opened on its own. */
function Preview({ card }: { card: ConservationCard }) {
  const { t } = useTranslation()
  const url = localUrl(card.preview_url)
  const label = t('documents.retention.preview', { name: card.name })
  if (card.mime.startsWith('image/')) {
    return (
      <div className="retention__preview">
        <img src={url} alt={label} data-testid="retention-preview" />
      </div>
    )
  }
  if (card.mime === 'application/pdf') {
    return (
      <div className="retention__preview">
        <iframe src={url} title={label} data-testid="retention-preview" />
      </div>
    )
  }
  return (
    <div className="retention__preview retention__preview--none">
      <p className="muted">{t('documents.retention.no_preview')}</p>
      <a className="button" href={url} target="_blank" rel="noopener">
        {t('documents.retention.open_file')}
        <span className="visually-hidden"> {card.name}</span>
      </a>
    </div>
  )
}

/** Delete or archive, each after a confirmation; the server's refusal is shown here. */
function Decision({ name, onConfirm }: { name: string; onConfirm(option: Disposition): Promise<void> }) {
  const { t } = useTranslation()
  const [asking, setAsking] = useState<Disposition | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (asking) confirmButton.current?.focus()
  }, [asking])

  async function confirm() {
    if (!asking || busy) return
    setBusy(true)
    setFailure(null)
    try {
      await onConfirm(asking)
    } catch (error) {
      setFailure(errorText(error))
      setBusy(false)
    }
  }

  return (
    <section className="retention__decision" aria-labelledby="retention-choose">
      <h2 id="retention-choose" className="docs-subtitle">
        {t('documents.retention.choose')}
      </h2>
      {failure && (
        <p className="notice notice--error" role="alert" data-testid="retention-refused">
          {failure}
        </p>
      )}
      {asking === null ? (
        <div className="retention__actions">
          <button type="button" className="button button--danger" onClick={() => setAsking('delete')}>
            {t('documents.retention.delete')}
          </button>
          <button type="button" className="button" onClick={() => setAsking('archive')}>
            {t('documents.retention.archive')}
          </button>
        </div>
      ) : (
        <div className="retention__ask" role="group" aria-labelledby="retention-ask" data-testid="retention-ask">
          <p id="retention-ask">
            {t(asking === 'delete' ? 'documents.retention.confirm_delete' : 'documents.retention.confirm_archive', {
              name,
            })}
          </p>
          <div className="retention__actions">
            <button
              ref={confirmButton}
              type="button"
              className={asking === 'delete' ? 'button button--danger' : 'button'}
              disabled={busy}
              onClick={() => void confirm()}
            >
              {busy
                ? t('documents.retention.working')
                : t(asking === 'delete' ? 'documents.retention.yes_delete' : 'documents.retention.yes_archive')}
            </button>
            <button
              type="button"
              className="button retention__quiet"
              disabled={busy}
              onClick={() => {
                setAsking(null)
                setFailure(null)
              }}
            >
              {t('documents.retention.cancel')}
            </button>
          </div>
        </div>
      )}
    </section>
  )
}
