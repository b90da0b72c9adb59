/**
 * How text is written into documents_search and how a user's words become a full-text query, the same on
 * SQLite FTS5 (unicode61 remove_diacritics 2) and MariaDB FULLTEXT (InnoDB, boolean mode).
 *
 * - Accents and case: folded by the engines (FTS5's remove_diacritics, MariaDB's _ci collation) and in
 *   the query's words here.
 * - Chinese (and Japanese, Korean) has no spaces: both tokenizers keep a run of CJK characters as one word,
 *   so a two-character word inside a name would never match. A run is indexed as overlapping bigrams plus
 *   its last character, each padded with CJK_PAD to three characters (InnoDB drops words shorter than
 *   innodb_ft_min_token_size, 3 by default): 合同书 → 合同q 同书q 书qq. A query's run is turned into the
 *   same bigrams (all required); a single character is a prefix (书*), which the trailing unigram covers.
 * - User text is never FTS syntax: only letters and digits survive as terms, each quoted (FTS5) or
 *   prefixed with `+` (MariaDB), so `"`, `*`, `-`, `NEAR`, `AND`, `OR` are searched as words or dropped.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu
/** A Latin letter no normalized word ends a CJK token with (the text is split at script changes). */
const CJK_PAD = 'q'
/** Runs of letters and digits: everything else separates words on both engines. */
const WORD = /[\p{L}\p{N}]+/gu

/** Lower case without Latin accents (é → e, ñ → n), keeping CJK marks (が stays が). */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
}

/** Words of a text after folding, CJK runs split from the letters around them. */
function words(text: string): string[] {
  const folded = foldText(text).replace(CJK_RUN, (run) => ` ${run} `)
  return folded.match(WORD) ?? []
}

const pad = (token: string) => token.padEnd(3, CJK_PAD)

/** The index tokens of a CJK run: its bigrams, then its last character. */
function cjkTokens(run: string): string[] {
  const chars = [...run]
  const tokens: string[] = []
  for (let i = 0; i + 1 < chars.length; i++) tokens.push(pad(chars[i] + chars[i + 1]))
  tokens.push(pad(chars[chars.length - 1]!))
  return tokens
}

/**
 * The text to store in a documents_search column (name, labels, metadata, body): the text as it is, each
 * CJK run replaced by its padded bigrams (both engines fold accents and case of the rest themselves).
 * The library's indexFile and the OCR job write through this.
 */
export function indexText(text: string): string {
  return text.replace(CJK_RUN, (run) => ` ${cjkTokens(run).join(' ')} `).trim()
}

/** One required term of a query: an exact token, or a prefix of one. */
export interface Term {
  token: string
  prefix: boolean
}

/** The terms of a user's search text (at most `maxTerms`, duplicates dropped). */
export function queryTerms(text: string, maxTerms: number): Term[] {
  const terms: Term[] = []
  for (const word of words(text)) {
    if (!CJK.test(word)) terms.push({ token: word, prefix: true })
    else if ([...word].length === 1) terms.push({ token: word, prefix: true })
    else for (const token of cjkTokens(word).slice(0, -1)) terms.push({ token, prefix: false })
  }
  const seen = new Set<string>()
  return terms.filter((t) => !seen.has(`${t.token}${t.prefix}`) && seen.add(`${t.token}${t.prefix}`)).slice(0, maxTerms)
}

/** FTS5: every term quoted (no operator survives), prefixes starred, implicitly ANDed. */
export function fts5Query(terms: readonly Term[]): string {
  return terms.map((t) => `"${t.token.replaceAll('"', '')}"${t.prefix ? '*' : ''}`).join(' ')
}

/** InnoDB's default stopwords (information_schema.INNODB_FT_DEFAULT_STOPWORD): a required one matches nothing. */
const INNODB_STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' '
  )
)
/** innodb_ft_min_token_size's default: shorter words are not in a MariaDB full-text index. */
export const MYSQL_MIN_TOKEN = 3

/**
 * MariaDB: the terms its full-text index can answer as `+term` / `+term*`, and the rest (short words and
 * stopwords), which the caller matches as word starts with REGEXP on the indexed text instead.
 */
export function mysqlQuery(terms: readonly Term[]): { against: string; likes: string[] } {
  const indexed: string[] = []
  const likes: string[] = []
  for (const t of terms) {
    if ([...t.token].length < MYSQL_MIN_TOKEN || INNODB_STOPWORDS.has(t.token)) likes.push(t.token)
    else indexed.push(`+${t.token}${t.prefix ? '*' : ''}`)
  }
  return { against: indexed.join(' '), likes }
}

/** A MariaDB REGEXP matching a word that starts with `token` (case-insensitive under the table's _ci collation). */
export function wordStartRegex(token: string): string {
  return `(^|[^[:alnum:]])${token.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`)}`
}
