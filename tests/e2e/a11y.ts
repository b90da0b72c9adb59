import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import type { BrowserContext, Page } from 'playwright-core'
import { BASE } from './session.ts'
import { addTestCheck } from '../../core/server/tests/helpers/test_checks.ts'

/**
 * Accessibility (issue 18): axe-core over the e2e suite's pages. `checkA11y(page)` checks one page now;
 * every context the harness opens is also watched (chromium.ts): its pages are checked as the test closes
 * it, each screen state once per run (without the contrast rule: see a11yViolations). Serious and
 * critical violations fail the test.
 */
const FAILING = new Set(['serious', 'critical'])

/**
 * Axe's rules whose outcome a translation can change: names and labels (a missing or empty text leaves a
 * control, image or frame unnamed), the page's title and its language. The others read the page's
 * structure, roles and colours, which are the same in every language.
 */
export const WORDING_RULES = [
  'area-alt',
  'aria-command-name',
  'aria-dialog-name',
  'aria-input-field-name',
  'aria-meter-name',
  'aria-progressbar-name',
  'aria-toggle-field-name',
  'aria-tooltip-name',
  'aria-treeitem-name',
  'button-name',
  'document-title',
  'frame-title',
  'html-has-lang',
  'html-lang-valid',
  'image-alt',
  'input-button-name',
  'input-image-alt',
  'label',
  'link-name',
  'object-alt',
  'role-img-alt',
  'select-name',
  'summary-name',
  'svg-img-alt',
  'valid-lang',
]

/**
 * The serious and critical violations on the page as it is, one line per rule and element. `contrast`
 * false leaves out axe's colour-contrast rule, its slowest by far: the check as a test closes its pages
 * runs without it, since a11y_walk.ts checks every screen's contrast. `rules` runs only those rules.
 * `legacy` runs axe in the page alone (cross-origin frames are not checked).
 */
export async function a11yViolations(
  page: Page,
  { contrast = true, legacy = false, rules }: { contrast?: boolean; legacy?: boolean; rules?: string[] } = {}
): Promise<string[]> {
  // A page mid-navigation loses axe's context: run once it has loaded, and again if it moved on.
  for (let attempt = 0; ; attempt++) {
    await page.waitForLoadState('load')
    try {
      let builder = new AxeBuilder({ page }).setLegacyMode(legacy)
      if (rules) builder = builder.withRules(rules)
      else if (!contrast) builder = builder.disableRules(['color-contrast'])
      const results = await builder.analyze()
      return results.violations
        .filter((violation) => FAILING.has(violation.impact ?? ''))
        .flatMap((violation) =>
          violation.nodes.map(
            (node) => `${violation.id} (${violation.impact}) ${node.target.join(' ')}: ${node.failureSummary ?? ''}`
          )
        )
    } catch (error) {
      if (attempt < 2 && /context was destroyed|navigat/i.test(String(error))) continue
      throw error
    }
  }
}

/** Fails (throws) when the page has serious or critical violations; `where` names the screen. */
export async function checkA11y(page: Page, where = page.url()): Promise<void> {
  const violations = await a11yViolations(page)
  if (violations.length) throw new Error(`accessibility violations on ${where}:\n${violations.join('\n')}`)
}

/**
 * A screen, to check each once per run: the path with ids and tokens masked, at a phone's or a wider
 * size. Its other states (dialogs, tabs) are left to a11y_walk.ts and the tests that check them: every
 * state of every test would cost the suite minutes for the same findings.
 */
function screenKey(page: Page): Promise<string> {
  return page.evaluate(() => {
    const path = location.pathname.replace(/\/[^/]*\d[^/]*/g, '/:id')
    return `${path} ${innerWidth < 768 ? 'phone' : 'wide'}`
  })
}

const checked = new Set<string>()
const pending: string[] = []

/**
 * True the first time a screen comes up in this run: in this process and, when the suite is shared by
 * several processes (TRAMITA_SHARED_DIR, tests/run.mjs), in any of them: the first to create the
 * screen's marker file checks it.
 */
function firstSight(key: string): boolean {
  if (checked.has(key)) return false
  checked.add(key)
  const dir = process.env.TRAMITA_SHARED_DIR
  if (!dir) return true
  try {
    writeFileSync(join(dir, `a11y-${createHash('sha1').update(key).digest('hex')}`), key, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/**
 * Watches a context: when the test closes it, each of its pages still on our server is checked by axe
 * (without the contrast rule: see a11yViolations) unless a page in the same state was checked before in
 * this run. What is found fails the test (the check below): tests close their contexts before their
 * end, so a check after the test would find no page left.
 */
export function watchA11y(context: BrowserContext): void {
  const close = context.close.bind(context)
  context.close = async (options) => {
    for (const page of context.pages()) {
      if (page.isClosed() || !page.url().startsWith(`${BASE}/`)) continue
      const key = await screenKey(page).catch(() => null)
      if (key === null || !firstSight(key)) continue
      // Legacy mode runs axe in the page itself: the default mode opens a blank page in the context,
      // which a context owned by `browser.newPage()` refuses.
      const violations = await a11yViolations(page, { contrast: false, legacy: true }).catch((error: Error) =>
        page.isClosed() ? [] : [`not checked (${error.message})`]
      )
      if (violations.length) pending.push(`${page.url()}:\n${violations.join('\n')}`)
    }
    return close(options)
  }
}

addTestCheck(() => {
  const problems = pending.splice(0)
  if (problems.length) throw new Error(`accessibility violations (serious or critical):\n${problems.join('\n')}`)
})

/** The element that has the keyboard focus, as the keyboard tests see it. */
export interface Focused {
  tag: string
  id: string
  name: string
  text: string
  /** The data-testid and data-field values of it and its ancestors, innermost first. */
  within: string[]
  /** A focus indicator shows: an outline (not transparent) or a box shadow. */
  visible: boolean
  style: string
}

export function focusedNow(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    let element = document.activeElement as HTMLElement | null
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement as HTMLElement
    if (!element || element === document.body) {
      return { tag: 'body', id: '', name: '', text: '', within: [], visible: false, style: '' }
    }
    const style = getComputedStyle(element)
    const transparent = (colour: string) => /rgba\(.*,\s*0\)$|transparent/.test(colour)
    const outline =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && !transparent(style.outlineColor)
    const within: string[] = []
    for (let node: HTMLElement | null = element; node; node = node.parentElement) {
      for (const value of [node.dataset.testid, node.dataset.field]) if (value) within.push(value)
    }
    return {
      tag: element.tagName.toLowerCase(),
      id: element.id,
      name: element.getAttribute('name') ?? '',
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60),
      within,
      visible: outline || style.boxShadow !== 'none',
      style: `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow ${style.boxShadow}; :focus ${element.matches(':focus')}, :focus-visible ${element.matches(':focus-visible')}, ${element.outerHTML.slice(0, 200)}`,
    }
  })
}

const describe = (f: Focused) => `${f.tag}#${f.id}[name=${f.name}] "${f.text}" in ${f.within.join(' < ')}`

/** Presses a key and returns the focused element, failing when it shows no focus indicator. */
export async function press(page: Page, key: string, { passEnd = false } = {}): Promise<Focused> {
  await page.keyboard.press(key)
  const focused = await focusedNow(page)
  // Tabbing past the last element leaves the document (to the browser's own controls): nothing to see.
  if (passEnd && focused.tag === 'body') return focused
  if (!focused.visible) throw new Error(`no visible focus after ${key}: ${describe(focused)} (${focused.style})`)
  return focused
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches, each stop showing its focus; fails
 * after `max` presses, naming the stops.
 */
export async function tabTo(
  page: Page,
  matches: (focused: Focused) => boolean,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
  max = 60
): Promise<Focused> {
  const stops: string[] = []
  for (let i = 0; i < max; i++) {
    const focused = await press(page, key, { passEnd: true })
    if (matches(focused)) return focused
    stops.push(describe(focused))
  }
  throw new Error(`no match after ${max} × ${key}:\n${stops.join('\n')}`)
}
