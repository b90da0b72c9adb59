/**
 * Markdown punctuation escaped with backslashes, so a field value put into a text block shows as the
 * user typed it: `**x**` stays two stars and `[a](b)` never becomes a link. On its own, without the
 * media renderers' helpers: text elements are drawn on a form's first paint, media fields load later.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&')
}
