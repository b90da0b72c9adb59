import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE, people, waitUntil } from '../../../../tests/e2e/session.ts'
import { PASSWORD, makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { attachSockets, file, resetSharing } from '../functional/sharing_fixtures.ts'
import type { CreatedLink } from '../../shared/sharing.ts'

/**
 * The public link screen in Chromium (spec 001 §2, §5): the owner makes a link, and a stranger opens it
 * in a fresh browser (no session): with a password (wrong, cleared, then right), with the visitor form
 * (checked, then sent), and a missing one; axe on each step.
 */

/** Makes a link as the owner's screen does: a call with the page's session. */
async function makeLink(page: Page, fileId: number, fields: Record<string, string>): Promise<CreatedLink> {
  return page.evaluate(
    async ({ fileId, fields }) => {
      const body = new FormData()
      body.set('case', 'POST')
      body.set('file_id', String(fileId))
      for (const [name, value] of Object.entries(fields)) body.set(name, value)
      const token = sessionStorage.getItem('tramita.token') ?? ''
      const response = await fetch('/api/documents/links', { method: 'POST', headers: { token }, body })
      return (await response.json()).data
    },
    { fileId, fields }
  )
}

/** What the page's sockets receive, parsed (the visitor has no session: an anonymous socket). */
function socketMessages(page: Page): { case: string; data: any }[] {
  const messages: { case: string; data: any }[] = []
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      try {
        messages.push(JSON.parse(String(payload)))
      } catch {
        // Not a message of ours.
      }
    })
  )
  return messages
}

test.group('documents public link screen in Chromium', (group) => {
  let browser: Browser
  const crowd = people(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    await attachSockets()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetSharing()
    return () => crowd.closeAll()
  })

  test('a password link: sent only when typed, a wrong one cleared, the right one opens the file', async ({
    assert,
  }) => {
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    // ASCII: a text file is served without a charset (see the report), so the browser may read it as Latin-1.
    const doc = await file(ana.id, 'contrato.txt', { bytes: 'Clausula primera' })
    const owner = await crowd.signedIn('ana')
    const link = await makeLink(owner, doc.id, { mode: 'password', password: 'Secreto#1' })

    const page = await crowd.open()
    const received = socketMessages(page)
    const asked: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/getPublicFile/')) asked.push(request.postData() ?? '')
    })
    await page.goto(`${base}${new URL(link.url).pathname}`)
    const password = page.getByLabel('Contraseña')
    await password.waitFor()
    await page.getByRole('heading', { name: 'contrato.txt' }).waitFor()
    const send = page.getByRole('button', { name: 'Enviar' })
    assert.isTrue(await send.isDisabled())
    await checkA11y(page, 'public link, password')

    await password.fill('otra')
    await password.press('Enter')
    await page.getByRole('alert').getByText('Contraseña inválida').waitFor()
    assert.equal(await password.inputValue(), '')
    assert.isTrue(await send.isDisabled())

    await password.fill('Secreto#1')
    await password.press('Enter')
    await page.waitForURL(/\/api\/documents\/public\//)
    assert.include(await page.locator('body').innerText(), 'Clausula primera')
    // The visitor's socket had an id, the page sent it as socketID, and fileReady came on it.
    const socketId = received.find((m) => m.case === 'init')?.data.token
    assert.match(socketId, /^[A-Za-z0-9_-]{22,}$/)
    assert.include(asked.at(-1), socketId)
    const ready = received.find((m) => m.case === 'fileReady')
    assert.equal(ready?.data.rute && new URL(ready.data.rute, base).pathname, new URL(page.url()).pathname)
    const outcomes = await db.from('documents_link_accesses').where('link_id', link.link.id).orderBy('id')
    assert.deepEqual(
      outcomes.map((row) => row.outcome),
      ['wrong_password', 'opened']
    )
  })

  test('a visitor link on a phone: the form says what is wrong, then the file opens and the visitor is recorded', async ({
    assert,
  }) => {
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    const doc = await file(ana.id, 'catalogo.txt', { bytes: 'Catalogo 2026' })
    const owner = await crowd.signedIn('ana')
    const link = await makeLink(owner, doc.id, { mode: 'visitor' })

    const page = await crowd.open(PHONE)
    await page.goto(`${base}${new URL(link.url).pathname}`)
    await page.getByLabel('Nombre completo').waitFor()
    // The country defaults to Colombia (+57).
    assert.equal(await page.getByLabel('País del celular').inputValue(), 'CO')
    await checkA11y(page, 'public link, visitor form')

    await page.getByLabel('Nombre completo').fill('Lucía Pérez')
    await page.getByLabel('Correo electrónico').fill('lucia@ejemplo')
    await page.getByLabel('Número de celular').fill('300 12')
    await page.getByRole('button', { name: 'Enviar' }).click()
    await page.getByText('Escribe un correo válido, como nombre@dominio.com.').waitFor()
    await page.getByText('Escribe un celular válido', { exact: false }).waitFor()
    await page.getByText('Debes autorizar el tratamiento de tus datos.').waitFor()
    assert.equal(await page.getByLabel('Correo electrónico').getAttribute('aria-invalid'), 'true')
    await checkA11y(page, 'public link, visitor form with errors')
    assert.equal(
      await db
        .from('documents_link_accesses')
        .count('* as n')
        .first()
        .then((r) => Number(r.n)),
      0
    )

    await page.getByLabel('Correo electrónico').fill('lucia@ejemplo.org')
    await page.getByLabel('Número de celular').fill('300 123 4567')
    await page.getByLabel('Autorizo el tratamiento de mis datos personales.').check()
    await page.getByRole('button', { name: 'Enviar' }).click()
    await page.waitForURL(/\/api\/documents\/public\//)
    assert.include(await page.locator('body').innerText(), 'Catalogo 2026')
    await waitUntil(async () => (await db.from('documents_link_accesses').where('outcome', 'opened').first()) !== null)
    const access = await db.from('documents_link_accesses').where('outcome', 'opened').firstOrFail()
    assert.deepInclude(access, {
      visitor_name: 'Lucía Pérez',
      visitor_email: 'lucia@ejemplo.org',
      visitor_phone: '+57 3001234567',
      visitor_company: null,
    })
  })

  test('a direct link opens the file at once; a link not yet active says so', async ({ assert }) => {
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    const doc = await file(ana.id, 'aviso.txt', { bytes: 'Aviso publico' })
    const owner = await crowd.signedIn('ana')
    const direct = await makeLink(owner, doc.id, { mode: 'direct', allow_download: '0' })
    const later = await makeLink(owner, doc.id, {
      mode: 'direct',
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
    })

    const page = await crowd.open()
    await page.goto(`${base}${new URL(direct.url).pathname}`)
    await page.waitForURL(/\/api\/documents\/public\//)
    assert.include(await page.locator('body').innerText(), 'Aviso publico')

    await page.goto(`${base}${new URL(later.url).pathname}`)
    await page.getByText('Este enlace aún no está activo.').waitFor()
    await checkA11y(page, 'public link, not yet active')
  })

  test('a missing document says so', async () => {
    const page = await crowd.open()
    await page.goto(`${base}/static/public/${'x'.repeat(43)}`)
    await page.getByTestId('public-link-failed').getByText('Este documento no existe').waitFor()
    await checkA11y(page, 'public link, missing')
  })
})
