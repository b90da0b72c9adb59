import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { watchCsp } from './csp.ts'
import { watchA11y } from './a11y.ts'

/**
 * Debian's Chromium, started as the machine's notes say (no background networking: the network is
 * closed). Its headless shell (package chromium-headless-shell, the old headless mode Playwright itself
 * runs) when installed: the same engine without the full browser's UI layers, 0.72× the CPU of the
 * full browser on the designer, process and table files (measured on one two-core machine).
 */
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium')
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * One headless Chromium for a test group; `extra` adds switches (a fake camera, for instance). Every
 * context it opens (`newPage` opens one too) is watched for CSP violations (csp.ts), and its pages
 * are checked by axe as the test closes it (a11y.ts).
 */
export async function launchChromium(extra: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extra] })
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options })
    await watchCsp(context)
    watchA11y(context)
    return context
  }
  return browser
}
