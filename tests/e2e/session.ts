import type { Browser, BrowserContext, Page } from 'playwright-core'
import { waitUntil as poll } from '../../core/server/tests/helpers/wait.ts'

/** Where the e2e suite's server listens. */
export const BASE = `http://${process.env.HOST}:${process.env.PORT}`

/** Signs a page in through the login screen and waits for the landing page. */
export async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.goto(`${BASE}/`)
  await page.locator('input[name=user]').fill(user)
  await page.locator('input[name=password]').fill(password)
  await page.getByTestId('login-sign-in').locator('button[type=submit]').click()
  await page.waitForURL(`${BASE}/document_management`)
}

/** A phone's screen (the accessibility and layout checks use it). */
export const PHONE = { width: 375, height: 812 }

/**
 * Browsers of their own per person (each context has its own session storage), in Spanish unless
 * `locale` says otherwise (the shell follows the browser's language), all closed by `closeAll` after
 * each test.
 */
export function people(browser: () => Browser, password: string, locale = 'es-CO') {
  const contexts: BrowserContext[] = []
  return {
    async open(viewport = { width: 1280, height: 900 }): Promise<Page> {
      const context = await browser().newContext({ locale, viewport })
      contexts.push(context)
      return context.newPage()
    },
    async signedIn(user: string, viewport?: { width: number; height: number }): Promise<Page> {
      const page = await this.open(viewport)
      await signIn(page, user, password)
      return page
    },
    async closeAll() {
      for (const context of contexts.splice(0)) await context.close()
    },
  }
}

/** Polls `check` (a database row, a page state) every 100 ms until it holds. */
export const waitUntil = (check: () => Promise<boolean>, ms = 15_000) => poll(check, ms, 'condition', 100)
