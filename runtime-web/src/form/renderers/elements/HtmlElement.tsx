/**
 * The html (ehtml) element (spec 000 §3: value, html, css, js, style). The designer's HTML and CSS are
 * shown inside an iframe with sandbox="" and srcdoc: an opaque origin with scripts, forms, popups and
 * navigation all off, so nothing in it can reach the page, its session or its DOM.
 * The element's `js` is NOT run, neither here nor in the iframe: user scripts run only in the QuickJS
 * sandbox (DESIGN.md), and what an ehtml script may do there belongs to the action-engine issue.
 */
import type { ElementProps } from '../../types.js'
import '../fields/media/media.css'

/** The document the iframe shows. `</style` in the CSS could only close the style block of this same inert document. */
export function htmlDocument(html: string, css: string, bodyStyle: string): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<style>html,body{margin:0;font-family:system-ui,sans-serif}body{${bodyStyle}}${css}</style>`,
    `</head><body>${html}</body></html>`,
  ].join('')
}

export function HtmlElement({ item }: ElementProps) {
  const data = item.data
  const body = data.html || data.value || ''
  return (
    <iframe
      className="media-html"
      sandbox=""
      srcDoc={htmlDocument(body, data.css ?? '', data.style ?? '')}
      title={data.label.value || item.field_name}
      style={{ height: data.height }}
      data-testid="html-element"
    />
  )
}
