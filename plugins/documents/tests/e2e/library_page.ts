/** The library screen as the Chromium tests drive it. */
import type { Locator, Page } from 'playwright-core'

/** Drops these files on `target` as a browser's drag and drop does (a DataTransfer of Files). */
export async function dropFiles(page: Page, target: Locator, files: { name: string; text: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const file of list) transfer.items.add(new File([file.text], file.name, { type: 'text/plain' }))
    return transfer
  }, files)
  await target.dispatchEvent('dragenter', { dataTransfer })
  await target.dispatchEvent('dragover', { dataTransfer })
  await target.dispatchEvent('drop', { dataTransfer })
}

/** A file's or folder's row of the list, by its name. */
export const row = (page: Page, kind: 'file' | 'folder', name: string) =>
  page.locator(`[data-testid=docs-${kind}][data-name="${name}"]`)
