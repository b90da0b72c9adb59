/**
 * The text and code viewer of the preview panel: the file as plain text (never run, never parsed as
 * markup), with a search box, the match count, next/previous match (buttons, Enter and Shift+Enter)
 * and the current match highlighted and scrolled into view. A lazily loaded chunk of its own.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useViewerTexts } from './texts.js'
import { findMatches, MAX_MATCHES, segmentText, stepMatch, type TextMatch } from '../../lib/text_search.js'
import type { ViewerProps } from './types.js'
import './viewers.css'

export default function TextViewer({ url, onReady, onFail }: ViewerProps) {
  const t = useViewerTexts()
  const [text, setText] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  // A long file re-marks after the keystroke has been painted, not during it.
  const deferred = useDeferredValue(query)
  // The stepped-to match belongs to one search; a new search starts at its first match.
  const [cursor, setCursor] = useState<{ of: TextMatch[]; at: number } | null>(null)
  const body = useRef<HTMLPreElement>(null)

  useEffect(() => {
    const abort = new AbortController()
    fetch(url, { signal: abort.signal })
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        return res.arrayBuffer()
      })
      .then((bytes) => {
        setText(new TextDecoder('utf-8').decode(bytes))
        onReady()
      })
      .catch(() => {
        if (!abort.signal.aborted) onFail()
      })
    return () => abort.abort()
  }, [url, onReady, onFail])

  const matches = useMemo(() => findMatches(text ?? '', deferred), [text, deferred])
  const segments = useMemo(() => segmentText(text ?? '', matches), [text, matches])

  const current = cursor?.of === matches ? cursor.at : matches.length > 0 ? 0 : -1

  useEffect(() => {
    if (current < 0) return
    body.current?.querySelector('mark[data-current]')?.scrollIntoView({ block: 'center', inline: 'nearest' })
  }, [current, segments])

  const step = (direction: 1 | -1) => setCursor({ of: matches, at: stepMatch(current, matches.length, direction) })

  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return
    event.preventDefault()
    step(event.shiftKey ? -1 : 1)
  }

  const count = matches.length >= MAX_MATCHES ? `${MAX_MATCHES}+` : matches.length
  return (
    <div className="viewer" data-testid="text-viewer" data-matches={matches.length} data-current={current}>
      <div className="viewer__bar" role="search">
        <input
          type="search"
          className="viewer__search"
          aria-label={t('viewers.search')}
          placeholder={t('viewers.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onSearchKey}
        />
        <span className="viewer__count" aria-live="polite" data-testid="text-matches">
          {deferred === ''
            ? ''
            : matches.length === 0
              ? t('field_ui.no_matches')
              : t('viewers.matches', { current: current + 1, count })}
        </span>
        <button
          type="button"
          aria-label={t('viewers.match_previous')}
          title={t('viewers.match_previous')}
          disabled={matches.length === 0}
          onClick={() => step(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          aria-label={t('viewers.match_next')}
          title={t('viewers.match_next')}
          disabled={matches.length === 0}
          onClick={() => step(1)}
        >
          ↓
        </button>
      </div>
      {/* Focusable so a keyboard user can scroll a long file. */}
      <pre ref={body} className="viewer__text" tabIndex={0}>
        {segments.map((segment, index) =>
          segment.match === undefined ? (
            segment.text
          ) : (
            <mark
              key={index}
              data-match={segment.match}
              data-current={segment.match === current || undefined}
              className={segment.match === current ? 'viewer__mark viewer__mark--current' : 'viewer__mark'}
            >
              {segment.text}
            </mark>
          )
        )}
      </pre>
    </div>
  )
}
