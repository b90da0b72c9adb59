/**
 * HTML from a source form, read as text (issue 24: Form.io content and descriptions showed literal tags
 * or were clipped in a fixed-height frame). Simple text markup (paragraphs, line breaks, bold, italic,
 * links, lists, headings) becomes markdown for a text element, which the runtime draws with the page's
 * own styles at its full height; anything else (tables, images, styles, scripts, forms…) is not
 * guessed at and stays an html element. Descriptions, which are plain text, keep only the words.
 */

const BLOCKS = new Set(['p', 'div', 'section', 'article'])
const INLINE = new Set(['span', 'b', 'strong', 'i', 'em', 'a', 'br'])
const LISTS = new Set(['ul', 'ol', 'li'])
const HEADINGS = /^h[1-6]$/
/** Attributes dropped without loss of meaning; any other makes the HTML more than text markup. */
const DROPPED = new Set(['class', 'id', 'dir', 'lang', 'ref', 'target', 'rel', 'title'])

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** Markdown's own characters in text, escaped so the words show as written. */
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>|#~])/g, '\\$1')

interface Token {
  tag?: string
  closing?: boolean
  attrs?: string
  text?: string
}

function tokens(html: string): Token[] | undefined {
  const out: Token[] = []
  const pattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^<>]*?)?)\s*\/?>|<!--[\s\S]*?-->|([^<]+)|</g
  for (const match of html.matchAll(pattern)) {
    if (match[4] !== undefined) out.push({ text: match[4] })
    else if (match[2] !== undefined)
      out.push({ tag: match[2].toLowerCase(), closing: match[1] === '/', attrs: match[3] ?? '' })
    else if (match[0] === '<') return undefined
  }
  return out
}

/** The attributes of a tag, or undefined when one of them carries meaning text cannot keep. */
function attributes(source: string, tag: string): Record<string, string> | undefined {
  const found: Record<string, string> = {}
  const pattern = /([a-zA-Z_:][a-zA-Z0-9_:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g
  for (const match of source.matchAll(pattern)) {
    const name = match[1]!.toLowerCase()
    const value = decode(match[2] ?? match[3] ?? match[4] ?? '')
    if (tag === 'a' && name === 'href') found.href = value
    else if (!DROPPED.has(name)) return undefined
  }
  return found
}

/** Simple HTML as markdown, or undefined when it is more than text markup. */
export function htmlAsMarkdown(html: string): string | undefined {
  const list = tokens(html)
  if (!list) return undefined
  let out = ''
  const lists: { ordered: boolean; count: number }[] = []
  const links: string[] = []
  const block = () => {
    out = out.replace(/[ \t]+$/, '')
    if (out !== '' && !out.endsWith('\n\n')) out += out.endsWith('\n') ? '\n' : '\n\n'
  }
  for (const token of list) {
    if (token.text !== undefined) {
      const text = escapeMarkdown(decode(token.text).replace(/\s+/g, ' '))
      out += out === '' || /\n$/.test(out) ? text.trimStart() : text
      continue
    }
    const tag = token.tag!
    if (!BLOCKS.has(tag) && !INLINE.has(tag) && !LISTS.has(tag) && !HEADINGS.test(tag)) return undefined
    const attrs = attributes(token.attrs ?? '', tag)
    if (!attrs) return undefined
    if (BLOCKS.has(tag)) block()
    else if (HEADINGS.test(tag)) {
      block()
      if (!token.closing) out += `${'#'.repeat(Number(tag[1]))} `
    } else if (tag === 'ul' || tag === 'ol') {
      if (token.closing) lists.pop()
      else lists.push({ ordered: tag === 'ol', count: 0 })
      block()
    } else if (tag === 'li') {
      if (token.closing) continue
      const current = lists[lists.length - 1]
      if (!current) return undefined
      current.count += 1
      if (!out.endsWith('\n') && out !== '') out += '\n'
      out += `${'  '.repeat(lists.length - 1)}${current.ordered ? `${current.count}.` : '-'} `
    } else if (tag === 'br') out += '  \n'
    else if (tag === 'b' || tag === 'strong') out += '**'
    else if (tag === 'i' || tag === 'em') out += '*'
    else if (tag === 'a') {
      if (token.closing) out += `](${links.pop() ?? ''})`
      else {
        const href = attrs.href ?? ''
        if (!/^(https?:|mailto:)/i.test(href)) return undefined
        links.push(href.replace(/[()\s]/g, encodeURIComponent))
        out += '['
      }
    }
  }
  return out.trim()
}

/** HTML as its words: tags dropped, entities decoded, blocks and line breaks as new lines. */
export function htmlAsText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h[1-6])\s*>/gi, '\n')
  return decode(withBreaks.replace(/<[^>]*>/g, ''))
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
}

/** Whether a text holds HTML tags. */
export const hasTags = (text: string) => /<\/?[a-zA-Z][^>]*>/.test(text)

/** Simple text markup as a text element (markdown, the page's styles, full height); the rest stays html. */
export function textElementOf(html: string): { type: 'text' | 'html'; data: { value: string } | { html: string } } {
  const markdown = htmlAsMarkdown(html)
  return markdown === undefined ? { type: 'html', data: { html } } : { type: 'text', data: { value: markdown } }
}
