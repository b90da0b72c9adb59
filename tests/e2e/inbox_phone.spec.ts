import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, PHONE, people as browsers } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { publishPermit, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { latestVersionByKey } from '../../core/server/app/services/process/definitions.ts'
import { startCase } from '../../core/server/app/services/process/engine.ts'

/**
 * The work list on a phone (issue 18): at 375×812 each row is a card, so every column (state, status,
 * waiting on, actions…) is on screen, nothing runs off to the right, and the actions work.
 */
type Bounds = {
  isAtLeast(value: number, least: number, message?: string): void
  isAtMost(value: number, most: number, message?: string): void
  deepEqual(actual: unknown, expected: unknown, message?: string): void
}

test.group('work list on a phone in Chromium', (group) => {
  let browser: Browser
  const session = browsers(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  /** Every cell of the row, scrolled to, lies wholly inside the viewport and shows its content. */
  async function cellsInside(page: Page, row: Locator, assert: Bounds) {
    const cells = row.locator('th, td')
    const count = await cells.count()
    for (let i = 0; i < count; i++) {
      const cell = cells.nth(i)
      // Scrolled to vertically only: a column that needs a sideways scroll to be seen is not on screen.
      await cell.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80))
      const box = (await cell.boundingBox())!
      const label = (await cell.getAttribute('data-label')) ?? 'code'
      assert.isAtLeast(box.x, 0, `${label} starts inside the screen`)
      assert.isAtMost(box.x + box.width, PHONE.width, `${label} ends inside the screen`)
      assert.isAtLeast(box.y, 0, label)
      assert.isAtMost(box.y + box.height, PHONE.height, label)
      // The content itself, not just its cell, is inside (a clipped child would stick out).
      const content = await cell.evaluate((el) => {
        const range = document.createRange()
        range.selectNodeContents(el)
        const r = range.getBoundingClientRect()
        return { left: r.left, right: r.right, text: (el as HTMLElement).innerText.trim() }
      })
      assert.isAtLeast(content.left, 0, `${label}'s content`)
      assert.isAtMost(content.right, PHONE.width, `${label}'s content`)
      assert.isAtLeast(content.text.length, 1, `${label} shows something`)
    }
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)
    // Nothing is left to reach by scrolling the list sideways either.
    const sideways = await row.evaluate((el) => {
      const box = el.closest('table')!.parentElement!
      return { scrolled: box.scrollLeft, hidden: box.scrollWidth - box.clientWidth }
    })
    assert.deepEqual(sideways, { scrolled: 0, hidden: 0 })
    return count
  }

  test('started cases and pending steps are cards: state, status, waiting on and actions on screen', async ({
    assert,
  }) => {
    const form = await publishPermit()
    const applicant = await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const version = (await latestVersionByKey(form.key))!
    const started = await startCase(version, applicant.id, {
      values: { nombre: 'Ana Ruiz', dias: 2, motivo: 'Cita médica con un nombre de especialista bastante largo' },
    })

    // The applicant's started cases: status and waiting on, and the link to see the case.
    const mine = await session.signedIn('solicitante', PHONE)
    await mine.goto(`${base}/process?view=started`)
    const row = mine.getByTestId('inbox-started-table').locator(`tr[data-code="${started.code}"]`)
    await row.waitFor()
    assert.equal(await cellsInside(mine, row, assert), 8, 'the code and the seven columns')
    for (const [label, text] of [
      ['Estado', 'En revisión'],
      ['En espera de', 'Talento humano'],
      ['Situación', 'En curso'],
    ]) {
      assert.include(await row.locator(`td[data-label="${label}"]`).innerText(), text)
    }
    await row.getByRole('link', { name: `Ver el caso ${started.code}` }).click()
    await mine.waitForURL((url) => url.pathname === '/forms/see')

    // The reviewer's pending steps: state and the actions, which work.
    const rev = await session.signedIn('revisora', PHONE)
    await rev.goto(`${base}/process`)
    const step = rev.getByTestId('inbox-pending-table').locator(`tr[data-code="${started.code}"]`)
    await step.waitFor()
    assert.equal(await cellsInside(rev, step, assert), 8)
    await step.getByRole('button', { name: `Tomar el paso Revisión del caso ${started.code}` }).click()
    await step.getByTestId('inbox-claimed').waitFor()
    assert.equal((await db.from('tasks').where('case_id', started.caseId).first()).claimed_by, reviewer.id)
    await cellsInside(rev, step, assert)
  })
})
