/**
 * The public shared-document screen, /static/public/:token (spec 001 §2, §4, §5, §7, §8): verify the
 * link, then ask for its password, or the visitor form, or open directly; then 'ready to view' and the
 * socket's fileReady (or the answer itself, when no socket answered in time) opens the file. Not yet
 * active and closed links say so; a missing one says 'This document does not exist' and closes after
 * 2 s. Every rule that matters is the server's; this screen only guides.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { call, CallError, interpretBody, readSession, sessionHeaders } from '@tramita/web/api'
import { Page } from '@tramita/web/Page'
import { callingCode, celularValue, PHONE_COUNTRIES } from '@tramita/contract/rules'
import {
  SHARING_LIMITS,
  SHARING_ROUTES,
  checkVisitor,
  type OpenAnswer,
  type VerifyAnswer,
  type VisitorField,
} from '../../shared/sharing.js'
import './public_link.css'

type Step =
  | { kind: 'verifying' }
  | { kind: 'failed'; message: string }
  | { kind: 'not_active' | 'closed'; name: string }
  | { kind: 'password' | 'visitor' | 'direct'; name: string }
  | { kind: 'ready'; name: string; rute: string; allowDownload: boolean }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** What the spec's client sends for a password: its SHA-256, in hex (the server keeps a slow hash of it). */
async function prehash(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * getPublicFile (spec 001 §7, a GET) tunnelled through POST as the spec's dispatcher allows (`case`
 * GET): the password's hash and the visitor's data travel in the body, out of addresses and logs.
 */
async function getPublicFile(token: string, fields: Record<string, string>): Promise<OpenAnswer> {
  const body = new FormData()
  body.set('case', 'GET')
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const path = SHARING_ROUTES.open.path.replace(':token', encodeURIComponent(token))
  const headers = sessionHeaders(readSession(), document.documentElement.lang || undefined)
  const response = await fetch(path, { method: 'POST', headers, body, credentials: 'same-origin' })
  const answer: unknown = await response.json().catch(() => null)
  const outcome = interpretBody<OpenAnswer>(answer)
  if (!outcome.ok) throw new CallError(outcome.message, answer)
  return outcome.body.data!
}

/** How long opening waits for the page's socket before asking without one (the answer then opens the file). */
const SOCKET_WAIT_MS = 1500
/** How long after the answer fileReady may take before the answer's address opens the file instead. */
const FILE_READY_WAIT_MS = 3000

type FileReadySocket = { ws: WebSocket; id: Promise<string | null> }

/**
 * The page's /ws socket, for the fileReady event: with the session's token when someone is signed in,
 * anonymous otherwise (the server gives a visitor's socket an id and sends it only what is addressed
 * to that id). The server closes an idle anonymous socket; the returned function opens a new one when
 * needed and resolves with the socket's id, or null when none is open within `waitMs`.
 */
function useFileReady(onReady: (rute: string) => void): (waitMs: number) => Promise<string | null> {
  const ready = useRef(onReady)
  ready.current = onReady
  const socket = useRef<FileReadySocket | null>(null)
  // A session token the server refused (expired): the page's sockets go without it from then on.
  const tokenRefused = useRef(false)

  const connect = useCallback((): Promise<string | null> => {
    if (socket.current) return socket.current.id
    if (typeof WebSocket === 'undefined') return Promise.resolve(null)
    const token = tokenRefused.current ? null : readSession().token
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
    const query = token ? `?token=${encodeURIComponent(token)}` : ''
    let ws: WebSocket
    try {
      ws = new WebSocket(`${scheme}://${location.host}/ws${query}`)
    } catch {
      return Promise.resolve(null)
    }
    let greeted = false
    const id = new Promise<string | null>((resolve) => {
      ws.onmessage = (event) => {
        try {
          const message = JSON.parse(String(event.data)) as {
            case?: string
            data?: { token?: unknown; rute?: unknown }
          }
          if (message.case === 'init' && typeof message.data?.token === 'string') {
            greeted = true
            resolve(message.data.token)
          }
          if (message.case === 'fileReady' && typeof message.data?.rute === 'string') ready.current(message.data.rute)
        } catch {
          // Not a message of ours.
        }
      }
      ws.onclose = () => {
        resolve(null)
        // Closed by the page itself (it cleared the socket first): nothing to learn.
        if (socket.current?.ws !== ws) return
        socket.current = null
        if (token && !greeted) tokenRefused.current = true
      }
    })
    socket.current = { ws, id }
    return id
  }, [])

  useEffect(() => {
    void connect()
    return () => {
      const open = socket.current
      socket.current = null
      open?.ws.close()
    }
  }, [connect])

  return useCallback(
    (waitMs: number) =>
      Promise.race([connect(), new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs))]),
    [connect]
  )
}

export default function PublicLink() {
  const { t } = useTranslation()
  const { token = '' } = useParams()
  const [step, setStep] = useState<Step>({ kind: 'verifying' })
  // Whether fileReady opened the file since the last ask (else the answer's address does).
  const delivered = useRef(false)
  const socketId = useFileReady((rute) => {
    delivered.current = true
    window.location.assign(rute)
  })
  const missing = t('documents.link_missing')

  const open = async (name: string, type: 'password' | 'public' | 'direct', data: string) => {
    const id = await socketId(SOCKET_WAIT_MS)
    delivered.current = false
    const opened = await getPublicFile(token, { socketID: id ?? '', type, data })
    setStep({ kind: 'ready', name, rute: opened.rute, allowDownload: opened.allow_download })
    // Without a socket no fileReady comes, and one may be lost: the answer's address opens the file then.
    const fallback = () => !delivered.current && window.location.assign(opened.rute)
    if (id) setTimeout(fallback, FILE_READY_WAIT_MS)
    else fallback()
  }

  useEffect(() => {
    let live = true
    call<VerifyAnswer>('POST', SHARING_ROUTES.verify.path, { token }).then(
      (answer) => {
        if (!live) return
        const { estado, pass, name } = answer.data!
        if (estado !== 'active') return setStep({ kind: estado, name })
        setStep({ kind: pass, name })
        if (pass === 'direct') {
          open(name, 'direct', '').catch(
            (error: unknown) => live && setStep({ kind: 'failed', message: messageOf(error) })
          )
        }
      },
      (error: unknown) => live && setStep({ kind: 'failed', message: messageOf(error) })
    )
    return () => {
      live = false
    }
    // The token is the page: verified once per token.
  }, [token])

  // Spec 001 §5, §9: a missing document's window closes after 2 s (a tab the browser will not close stays, saying so).
  const gone = step.kind === 'failed' && step.message === missing
  useEffect(() => {
    if (!gone) return
    const timer = setTimeout(() => window.close(), SHARING_LIMITS.missingCloseMs)
    return () => clearTimeout(timer)
  }, [gone])

  const name = 'name' in step ? step.name : ''
  return (
    <Page title={name || t('documents.public.title')} testId="public-link">
      <div className="public-link">
        {step.kind === 'verifying' && (
          <p role="status" aria-busy="true">
            {t('documents.public.verifying')}
          </p>
        )}
        {step.kind === 'failed' && (
          <p role="alert" className="public-link__problem" data-testid="public-link-failed">
            {step.message}
          </p>
        )}
        {step.kind === 'not_active' && (
          <p role="status" className="public-link__problem">
            {t('documents.link_not_active')}
          </p>
        )}
        {step.kind === 'closed' && (
          <p role="status" className="public-link__problem">
            {t('documents.link_closed')}
          </p>
        )}
        {step.kind === 'direct' && (
          <p role="status" aria-busy="true">
            {t('documents.public.opening')}
          </p>
        )}
        {step.kind === 'password' && <PasswordStep onSend={(hash) => open(step.name, 'password', hash)} />}
        {step.kind === 'visitor' && <VisitorStep onSend={(data) => open(step.name, 'public', data)} />}
        {step.kind === 'ready' && (
          <div role="status" className="public-link__ready" data-testid="public-link-ready">
            <p>{t('documents.public.ready')}</p>
            <p className="public-link__actions">
              <a className="public-link__button" href={step.rute}>
                {t('documents.public.view')}
              </a>
              {step.allowDownload && (
                <a className="public-link__button public-link__button--quiet" href={`${step.rute}?download=1`}>
                  {t('documents.public.download')}
                </a>
              )}
            </p>
          </div>
        )}
      </div>
    </Page>
  )
}

/** Spec 001 §5: sent only when not empty (Enter sends); a wrong one says so and empties the field. */
function PasswordStep({ onSend }: { onSend: (hash: string) => Promise<void> }) {
  const { t } = useTranslation()
  const id = useId()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (password === '' || busy) return
    setBusy(true)
    try {
      await onSend(await prehash(password))
    } catch (failure) {
      setError(failure instanceof CallError ? failure.message : messageOf(failure))
      setPassword('')
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="public-link__form" onSubmit={submit} noValidate>
      <p>{t('documents.public.password_intro')}</p>
      <label htmlFor={`${id}-password`}>{t('documents.public.password')}</label>
      <input
        ref={input}
        id={`${id}-password`}
        type="password"
        autoComplete="off"
        value={password}
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setPassword(event.target.value)}
      />
      <p id={`${id}-error`} role="alert" className="public-link__error">
        {error}
      </p>
      <button type="submit" className="public-link__button" disabled={password === '' || busy}>
        {t('documents.public.send')}
      </button>
    </form>
  )
}

/** Countries by their name in the page's language, CO first as the default (spec 001 §2). */
function countries(language: string) {
  let names: Intl.DisplayNames | null = null
  try {
    names = new Intl.DisplayNames([language, 'es'], { type: 'region' })
  } catch {
    // An engine without region names shows the codes.
  }
  const collator = new Intl.Collator(language)
  return PHONE_COUNTRIES.map((code) => ({ code, name: names?.of(code) ?? code, dial: callingCode(code) })).sort(
    (a, b) => collator.compare(a.name, b.name)
  )
}

/** Spec 001 §2, §5: company (optional), full name, e-mail, mobile with its country (CO), the authorization. */
function VisitorStep({ onSend }: { onSend: (data: string) => Promise<void> }) {
  const { t, i18n } = useTranslation()
  const id = useId()
  const [company, setCompany] = useState('')
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [country, setCountry] = useState('CO')
  const [number, setNumber] = useState('')
  const [accept, setAccept] = useState(false)
  const [errors, setErrors] = useState<VisitorField[]>([])
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const list = countries(i18n.language)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const phone = celularValue(country, number).string
    const checked = checkVisitor({ name_company: company, name, email, phone, accept })
    if (!checked.ok) {
      setErrors(checked.errors)
      setFailure(null)
      form.current?.querySelector<HTMLElement>(`[data-field="${checked.errors[0]}"]`)?.focus()
      return
    }
    setErrors([])
    setBusy(true)
    try {
      await onSend(JSON.stringify(checked.data))
    } catch (error) {
      const fields =
        (error instanceof CallError ? (error.body as { fields?: VisitorField[] })?.fields : undefined) ?? []
      setErrors(fields)
      setFailure(messageOf(error))
    } finally {
      setBusy(false)
    }
  }

  const invalid = (field: VisitorField) => errors.includes(field)
  const described = (field: VisitorField) => (invalid(field) ? `${id}-${field}-error` : undefined)
  const errorText = (field: VisitorField) =>
    invalid(field) ? (
      <span id={`${id}-${field}-error`} className="public-link__error">
        {t(`documents.public.error_${field}`)}
      </span>
    ) : null

  return (
    <form ref={form} className="public-link__form" onSubmit={submit} noValidate>
      <p>{t('documents.public.visitor_intro')}</p>
      <label htmlFor={`${id}-company`}>{t('documents.public.company')}</label>
      <input
        id={`${id}-company`}
        data-field="name_company"
        autoComplete="organization"
        value={company}
        maxLength={SHARING_LIMITS.visitorTextMax}
        onChange={(event) => setCompany(event.target.value)}
      />
      <label htmlFor={`${id}-name`}>{t('documents.public.name')}</label>
      <input
        id={`${id}-name`}
        data-field="name"
        autoComplete="name"
        required
        value={name}
        maxLength={SHARING_LIMITS.visitorTextMax}
        aria-invalid={invalid('name') || undefined}
        aria-describedby={described('name')}
        onChange={(event) => setName(event.target.value)}
      />
      {errorText('name')}
      <label htmlFor={`${id}-email`}>{t('documents.public.email')}</label>
      <input
        id={`${id}-email`}
        data-field="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        maxLength={SHARING_LIMITS.emailMax}
        aria-invalid={invalid('email') || undefined}
        aria-describedby={described('email')}
        onChange={(event) => setEmail(event.target.value)}
      />
      {errorText('email')}
      <fieldset className="public-link__phone">
        <legend>{t('documents.public.phone')}</legend>
        <select
          aria-label={t('documents.public.country')}
          autoComplete="tel-country-code"
          value={country}
          onChange={(event) => setCountry(event.target.value)}
        >
          {list.map((entry) => (
            <option key={entry.code} value={entry.code}>
              {entry.name} (+{entry.dial})
            </option>
          ))}
        </select>
        <input
          data-field="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          required
          aria-label={t('documents.public.phone_number')}
          value={number}
          aria-invalid={invalid('phone') || undefined}
          aria-describedby={described('phone')}
          onChange={(event) => setNumber(event.target.value)}
        />
      </fieldset>
      {errorText('phone')}
      <label className="public-link__check">
        <input
          type="checkbox"
          data-field="accept"
          checked={accept}
          required
          aria-invalid={invalid('accept') || undefined}
          aria-describedby={described('accept')}
          onChange={(event) => setAccept(event.target.checked)}
        />
        {t('documents.public.accept')}
      </label>
      {errorText('accept')}
      <p role="alert" className="public-link__error">
        {failure ?? (errors.length > 0 ? t('documents.visitor_invalid') : '')}
      </p>
      <button type="submit" className="public-link__button" disabled={busy}>
        {t('documents.public.send')}
      </button>
    </form>
  )
}
