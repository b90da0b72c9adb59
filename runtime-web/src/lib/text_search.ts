/**
 * The text viewer's search (spec 000 §2 "Dialogs": code with text search and next/previous match):
 * literal, case-insensitive matches and the stepping between them. Pure, so it is unit-tested apart
 * from the viewer that paints the marks.
 */

/** Lower case without accents, so 'revision' finds 'Revisión' (the consultation's and the table's searches). */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

export interface TextMatch {
  start: number
  end: number
}

/** A piece of the text: plain, or the `match`-th match. */
export type TextSegment = { text: string; match?: number }

/** More marks than this would make the page crawl on a big log; the count says "N+". */
export const MAX_MATCHES = 5000

const SPECIAL = /[.*+?^${}()|[\]\\]/g

/**
 * Where `query` occurs in `text`, ignoring case (Unicode case folding: the positions are the text's
 * own, which lower-casing both strings would not keep for every letter). Matches do not overlap.
 */
export function findMatches(text: string, query: string, limit = MAX_MATCHES): TextMatch[] {
  if (!query) return []
  const pattern = new RegExp(query.replace(SPECIAL, '\\$&'), 'giu')
  const found: TextMatch[] = []
  for (const hit of text.matchAll(pattern)) {
    found.push({ start: hit.index, end: hit.index + hit[0].length })
    if (found.length >= limit) break
  }
  return found
}

/**
 * The match after (`step` 1) or before (`step` -1) `current`, wrapping around; -1 when there is none.
 * With no current match (-1), next goes to the first and previous to the last.
 */
export function stepMatch(current: number, count: number, step: 1 | -1): number {
  if (count <= 0) return -1
  if (current < 0 || current >= count) return step === 1 ? 0 : count - 1
  return (current + step + count) % count
}

/** The text cut at the matches, in order, so each match can be painted as a mark. */
export function segmentText(text: string, matches: readonly TextMatch[]): TextSegment[] {
  const segments: TextSegment[] = []
  let at = 0
  matches.forEach((m, index) => {
    if (m.start > at) segments.push({ text: text.slice(at, m.start) })
    segments.push({ text: text.slice(m.start, m.end), match: index })
    at = m.end
  })
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at) })
  return segments
}
