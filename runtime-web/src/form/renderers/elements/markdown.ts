/**
 * Markdown of text elements, loaded only by forms that have one (it is ~35 kB gzipped, more than the
 * rest of the form screen's renderers). markdown-it runs with HTML off, so raw tags in the text or in
 * a value are shown as text; its link check refuses javascript:, vbscript:, file: and non-image data:
 * URLs.
 */
import MarkdownIt from 'markdown-it'

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true })

// Links leave the form in a new tab, without handing it the opener.
const defaultLink = markdown.renderer.rules.link_open
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet('target', '_blank')
  tokens[index]!.attrSet('rel', 'noopener noreferrer')
  return defaultLink ? defaultLink(tokens, index, options, env, self) : self.renderToken(tokens, index, options)
}

export function renderMarkdown(text: string): string {
  return markdown.render(text)
}
