/**
 * English left on a Spanish or Chinese screen (issue 18): common English interface words, matched as
 * whole words whatever their case, after the texts the test put in (user data) are taken out. A
 * Chinese screen is held to more: no Latin-script word at all but the few names and abbreviations
 * every language writes the same way.
 */

/** Words a screen's chrome says in English: labels, buttons, states, the spec's role names. */
export const ENGLISH_WORDS = new Set(
  `the and from to of or in on at by for with is are was be not your you my this that
  page pages send sent save saved cancel status home search loading load actions action name names date dates time
  role roles users user documents document form forms yes no next previous back close closed error errors required
  submit sign signed login logout password email settings delete remove add edit open view new start started
  pending approve approved approval reject rejected process processes state states step steps case cases code
  consult consultation information info designer version versions publish published draft list tree area areas
  profile file files upload uploaded download filter filters clear all none select choose today welcome hello
  work task tasks inbox summary per rows row superuser supervisor teacher student database queue storage sockets
  ok down online offline refresh checked language english spanish chinese unauthorized failed success warning done
  finished ended claim release claimed assigned waiting updated blocked active enabled disabled create created
  more less first last show hide help logo image images signature camera week month year day days hour hours minute
  minutes second seconds activity register decision comment comments value values field fields variables preview
  generated linked empty unknown invalid missing notifications notification skip content main navigation menu
  overall healthy degraded driver`.split(/\s+/)
)

/** English words that are Spanish words too (and Spanish on these screens: the spec's 'Error', a role). */
const SPANISH_TOO = new Set([
  'no',
  'error',
  'total',
  'supervisor',
  'general',
  'normal',
  'color',
  'final',
  'variables',
  'roles',
])

/** What a Chinese screen may write in Latin letters: names and abbreviations no one translates. */
const LATIN_IN_CHINESE = new Set(
  [
    'Tramita',
    'API',
    'PDF',
    'JSON',
    'HTML',
    'CSS',
    'SVG',
    'PNG',
    'JPEG',
    'ID',
    'QR',
    'FA',
    'MB',
    'URL',
    'Esc',
    'Enter',
    'Shift',
  ].map((w) => w.toLowerCase())
)

/**
 * `text` without every occurrence of the given strings (longest first, so a name inside another goes with
 * it), each only where it stands as whole words: a piece never cuts a word of the page in two (CI once
 * found "In" on the Spanish sign-in page, whose only "In" is the start of "Institución").
 */
export function withoutTexts(text: string, remove: Iterable<string>): string {
  let out = text
  for (const piece of [...new Set(remove)].filter((p) => p.trim().length > 0).sort((a, b) => b.length - a.length)) {
    const escaped = piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), ' ')
  }
  return out
}

/**
 * A user text and its pieces as a page may show them: a markdown text loses its marks and its
 * ${field} placeholders are filled, so its lines and the runs between them are taken out too.
 */
function pieces(userTexts: Iterable<string>): string[] {
  return [...userTexts]
    .flatMap((text) => [text, ...text.split(/\n+|\*\*|_|\$\{[^}]*\}|^#+ |^- /mu)])
    .map((piece) => piece.trim())
    .filter((piece) => /\p{L}/u.test(piece))
}

/**
 * The English words on a screen in `lang` ('es' or 'zh'), each once, in the order they first appear.
 * On a Chinese screen a Latin-script word of the user texts (a Spanish form's) is theirs, not English.
 */
export function englishWords(text: string, lang: string, userTexts: Iterable<string>): string[] {
  const data = pieces(userTexts)
  const dataWords = new Set(data.flatMap((piece) => piece.toLowerCase().match(/\p{Script=Latin}+/gu) ?? []))
  const words = withoutTexts(text, data).match(/\p{Script=Latin}+/gu) ?? []
  const found = new Set<string>()
  for (const word of words) {
    const lower = word.toLowerCase()
    const english = ENGLISH_WORDS.has(lower) && !(lang === 'es' && SPANISH_TOO.has(lower))
    const untranslated = lang === 'zh' && lower.length > 1 && !LATIN_IN_CHINESE.has(lower) && !dataWords.has(lower)
    if (english || untranslated) found.add(word)
  }
  return [...found]
}
