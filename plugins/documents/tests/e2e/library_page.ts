/** The library screen as the Chromium tests drive it. */
import type { Group } from '@japa/runner/core'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { people } from '../../../../tests/e2e/session.ts'
import { PASSWORD } from '../../../../core/server/tests/helpers/auth.ts'
import { resetLibrary } from '../functional/library_fixtures.ts'

/**
 * Drops these files on `target` as a browser's drag and drop does (a DataTransfer of Files): text, or
 * bytes given as base64 with their type.
 */
export async function dropFiles(
  page: Page,
  target: Locator,
  files: ({ name: string; text: string } | { name: string; base64: string; type: string })[]
) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const file of list) {
      const content = 'text' in file ? file.text : Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
      transfer.items.add(new File([content], file.name, { type: 'text' in file ? 'text/plain' : file.type }))
    }
    return transfer
  }, files)
  await target.dispatchEvent('dragenter', { dataTransfer })
  await target.dispatchEvent('dragover', { dataTransfer })
  await target.dispatchEvent('drop', { dataTransfer })
}

/** A file's or folder's row of the list, by its name. */
export const row = (page: Page, kind: 'file' | 'folder', name: string) =>
  page.locator(`[data-testid=docs-${kind}][data-name="${name}"]`)

/**
 * A test group's Chromium and signed-in people: one browser for the group, an empty library and
 * closed pages around each test.
 */
export function libraryBrowser(group: Group) {
  let browser: Browser
  const crowd = people(() => browser, PASSWORD)
  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetLibrary()
    return () => crowd.closeAll()
  })
  return crowd
}
