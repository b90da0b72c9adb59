/**
 * The text element (spec 000 §3 "text block"): markdown whose ${field} placeholders show the fields'
 * current display texts, re-rendered when one of those fields changes. Values are markdown-escaped
 * before they are put in, so what a user typed is shown as typed, never read as markup. Until the
 * markdown module has loaded, the text shows as plain text.
 */
import { useEffect, useMemo, useState } from 'react'
import type { ElementProps } from '../../types.js'
import { escapeMarkdown } from './escape_markdown.js'
import { useFilledText } from '../fields/media/useFilledText.js'
import '../fields/media/media.css'

type Render = (text: string) => string
let loading: Promise<Render> | undefined
let loaded: Render | undefined

function loadMarkdown(): Promise<Render> {
  loading ??= import('./markdown.js').then((m) => (loaded = m.renderMarkdown))
  return loading
}

export function TextElement({ item, store }: ElementProps) {
  const source = typeof item.data.value === 'string' ? item.data.value : ''
  const text = useFilledText(source, escapeMarkdown, store)
  const [render, setRender] = useState<Render | undefined>(() => loaded)
  useEffect(() => {
    if (!render) void loadMarkdown().then((fn) => setRender(() => fn))
  }, [render])
  const html = useMemo(() => render?.(text), [render, text])
  if (html === undefined) {
    return (
      <div className="media-markdown media-markdown--plain" data-testid="text-element">
        {text}
      </div>
    )
  }
  // Safe to insert: markdown-it with html:false escapes every tag and validates every link.
  return <div className="media-markdown" data-testid="text-element" dangerouslySetInnerHTML={{ __html: html }} />
}
