import { createHash, randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { englishWords } from '../../../../tests/e2e/english_words.ts'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { BASE as base, PHONE, people, waitUntil } from '../../../../tests/e2e/session.ts'
import { makeUser, PASSWORD, resetAuthTables } from '../../../../core/server/tests/helpers/auth.ts'

/**
 * The devices administration screens in Chromium (spec 001 §2; issue 21 item 6): a superuser makes an
 * agent and sees its token once (with the command that starts it), renames it and revokes it after a
 * confirmation; a machine its agent reported is described and assigned to a person; on a phone the
 * lists become cards that fit its width; Spanish, English and Chinese; a teacher is offered neither
 * screen and the routes refuse them. axe checks each screen and dialog.
 */

async function resetDevices() {
  for (const table of ['devices_job_files', 'devices_jobs', 'devices_machine_people', 'devices_machines']) {
    await db.from(table).delete()
  }
  await db.from('devices_agents').delete()
  await resetAuthTables()
}

/** An agent connected now (its lease fresh: ACTIVE) with one printer, as the agent's hello leaves them. */
async function reportedMachine() {
  const now = new Date()
  const [agentId] = await db.table('devices_agents').insert({
    name: 'Recepción',
    status: 'ACTIVE',
    token_hash: createHash('sha256').update('un token de prueba').digest('hex'),
    token_hint: 'Ab3_x9',
    session: 'lease-1',
    instance: 'instance-1',
    session_seen_at: now,
    last_seen_at: now,
    hostname: 'pc-recepcion',
    version: '0.2.0',
    created_at: now,
    updated_at: now,
  })
  const [machineId] = await db.table('devices_machines').insert({
    agent_id: Number(agentId),
    name: 'HP LaserJet M404',
    brand: 'HP',
    model: 'LaserJet M404',
    location: 'Piso 1',
    ip: '10.0.0.7',
    token: randomBytes(16).toString('hex'),
    availability: 'print only',
    uid: 'ipp://10.0.0.7/ipp/print',
    can_print: true,
    can_scan: false,
    trays: JSON.stringify(['Bandeja 1', 'Manual']),
    reported_at: now,
    created_at: now,
    updated_at: now,
  })
  return { agentId: Number(agentId), machineId: Number(machineId) }
}

/** A person with a name of their own (the picker finds people by it). */
async function person(username: string, firstName: string, lastName: string, role = 'teacher') {
  const user = await makeUser({ username, role })
  await db.from('users').where('id', user.id).update({ first_name: firstName, last_name: lastName })
  return user.id
}

const agentRow = (page: Page, name: string) => page.locator(`[data-testid=dev-agent][data-name="${name}"]`)
const machineRow = (page: Page, name: string) => page.locator(`[data-testid=dev-machine][data-name="${name}"]`)

/** English left on the screen's main part in `lang`, the test's own data taken out. */
const english = async (page: Page, lang: 'es' | 'zh', data: string[]) =>
  englishWords(await page.locator('main').innerText(), lang, data)

/** What reportedMachine() wrote, as the screens show it. */
const REPORTED = ['Recepción', 'pc-recepcion', '0.2.0', 'Ab3_x9', 'HP LaserJet M404', 'Piso 1', '10.0.0.7']

/** How far the page reaches past the window's right edge (0: nothing overflows sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/** How far the list reaches past its page's card (0 or less: it stays inside). */
const sticksOut = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelector('.dev-table')!.getBoundingClientRect().right -
      document.querySelector('main .page')!.getBoundingClientRect().right
  )

test.group('devices administration screens in Chromium', (group) => {
  let browser: Browser
  const es = people(() => browser, PASSWORD)
  const en = people(() => browser, PASSWORD, 'en-US')
  const zh = people(() => browser, PASSWORD, 'zh-CN')
  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetDevices()
    return async () => {
      for (const crowd of [es, en, zh]) await crowd.closeAll()
    }
  })

  test('agents: a new one’s token shown once, WAITING; renamed; revoked after a confirmation', async ({ assert }) => {
    await makeUser({ username: 'admin_dev', role: 'superuser' })
    const page = await es.signedIn('admin_dev')
    // The home offers both screens to a superuser.
    const nav = page.getByTestId('home-nav')
    await nav.getByRole('link', { name: 'Agentes', exact: true }).click()
    await page.waitForURL(`${base}/devices/agents`)
    await page.getByText('Aún no hay agentes.', { exact: false }).waitFor()
    await checkA11y(page, 'agents, empty')

    // A name the server refuses (blank once trimmed): its message, in the dialog that asked.
    await page.getByRole('button', { name: 'Nuevo agente' }).click()
    const made = page.getByTestId('dev-new-agent-dialog')
    await made.getByLabel('Nombre del agente').fill('   ')
    await made.getByRole('button', { name: 'Crear' }).click()
    await made.getByRole('alert').getByText('Escribe un nombre para el agente', { exact: false }).waitFor()
    await checkA11y(page, 'new agent dialog, refused')
    await made.getByLabel('Nombre del agente').fill('Recepción')
    await made.getByRole('button', { name: 'Crear' }).click()

    // The token, once, with the command that starts the agent with it.
    const shown = page.getByTestId('dev-token-dialog')
    await shown.getByRole('heading', { name: 'Agente «Recepción» creado' }).waitFor()
    await shown.getByText('no se volverá a mostrar', { exact: false }).waitFor()
    const token = await shown.getByLabel('Token', { exact: true }).inputValue()
    assert.match(token, /^[A-Za-z0-9_-]{43}$/)
    const flag = token.startsWith('-') ? `--token=${token}` : `--token ${token}`
    assert.equal(
      await shown.getByLabel('Orden para iniciar el agente').inputValue(),
      `tramita agent --server ${base} ${flag}`
    )
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    await shown.getByRole('button', { name: 'Copiar token' }).click()
    await shown.getByRole('status').getByText('Token copiado.').waitFor()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token)
    await checkA11y(page, 'token dialog')
    const stored = await db.from('devices_agents').where('name', 'Recepción').first()
    assert.equal(stored.token_hash, createHash('sha256').update(token).digest('hex'))
    await shown.getByRole('button', { name: 'Ya lo copié' }).click()
    await shown.waitFor({ state: 'detached' })

    // The list: WAITING, no machines, never seen, only the token's first characters.
    const row = agentRow(page, 'Recepción')
    await row.getByTestId('dev-status').getByText('EN ESPERA').waitFor()
    assert.equal(await row.getByTestId('dev-status').getAttribute('data-status'), 'WAITING')
    assert.include(await row.innerText(), 'Nunca')
    assert.include(await row.innerText(), `${token.slice(0, 6)}…`)
    assert.notInclude(await page.content(), token, 'the token is not on the page once its dialog closed')
    await page.reload()
    await row.waitFor()
    assert.notInclude(await page.content(), token)
    await checkA11y(page, 'agents, one')
    assert.isAtMost(await sticksOut(page), 0, 'the agents table stays inside its card')
    assert.deepEqual(await english(page, 'es', ['Recepción', token.slice(0, 6)]), [])

    // Renamed.
    await row.getByRole('button', { name: 'Renombrar Recepción' }).click()
    const rename = page.getByTestId('dev-rename-agent-dialog')
    await rename.getByLabel('Nombre del agente').fill('Recepción, piso 1')
    await rename.getByRole('button', { name: 'Guardar' }).click()
    await rename.waitFor({ state: 'detached' })
    const renamed = agentRow(page, 'Recepción, piso 1')
    await renamed.waitFor()
    assert.equal((await db.from('devices_agents').where('id', stored.id).first()).name, 'Recepción, piso 1')

    // Revoked after a confirmation (cancelled once: nothing changes).
    await renamed.getByRole('button', { name: 'Revocar Recepción, piso 1' }).click()
    const revoke = page.getByTestId('dev-revoke-agent-dialog')
    await revoke.getByText('sus trabajos sin terminar fallan', { exact: false }).waitFor()
    await checkA11y(page, 'revoke agent dialog')
    await revoke.getByRole('button', { name: 'Cancelar' }).click()
    await revoke.waitFor({ state: 'detached' })
    assert.isNull((await db.from('devices_agents').where('id', stored.id).first()).revoked_at)
    await renamed.getByRole('button', { name: 'Revocar Recepción, piso 1' }).click()
    await revoke.getByRole('button', { name: 'Revocar' }).click()
    await revoke.waitFor({ state: 'detached' })
    await renamed.getByTestId('dev-status').getByText('CANCELADO').waitFor()
    assert.equal(await renamed.getByTestId('dev-status').getAttribute('data-status'), 'CANCELLED')
    assert.equal(await renamed.getByRole('button', { name: /^Revocar/ }).count(), 0)
    assert.include(await renamed.innerText(), 'Revocado')
    const revoked = await db.from('devices_agents').where('id', stored.id).first()
    assert.isNotNull(revoked.revoked_at)
    assert.equal(revoked.status, 'CANCELLED')

    // The machines screen, before any agent reported one.
    await page.goto(`${base}/devices/machines`)
    await page.getByText('Aún no hay máquinas.', { exact: false }).waitFor()
    assert.deepEqual(await english(page, 'es', []), [])
    await checkA11y(page, 'machines, empty')
  })

  test('machines, in English: described and assigned to a person, saved and shown', async ({ assert }) => {
    const { machineId } = await reportedMachine()
    await makeUser({ username: 'admin_dev', role: 'superuser' })
    const ana = await person('ana_dev', 'Ana', 'Pérez')
    await person('andres_dev', 'Andrés', 'Gómez')
    const page = await en.signedIn('admin_dev')
    // A clock the test moves: the lists' refresh comes when asked rather than after a real wait.
    await page.clock.install()

    // Its agent, connected: ACTIVE, one machine, seen just now, its computer.
    await page.goto(`${base}/devices/agents`)
    const agent = agentRow(page, 'Recepción')
    await agent.getByTestId('dev-status').getByText('ACTIVE').waitFor()
    const agentText = await agent.innerText()
    for (const value of ['pc-recepcion', 'Ab3_x9…']) assert.include(agentText, value)
    assert.equal(await agent.locator('td').nth(1).innerText(), '1')

    // The list follows the agent by itself: its connection closed, the screen says so within one refresh.
    await db.from('devices_agents').update({ session: null, session_seen_at: null, status: 'INACTIVE' })
    await page.clock.fastForward(11_000) // one refresh (LIVE_MS, web/screens/parts.tsx) and a second
    await agent.getByTestId('dev-status').getByText('INACTIVE').waitFor()
    // Back: connected again (the rest of the test needs its machine available).
    await db.from('devices_agents').update({ session: 'lease-1', session_seen_at: new Date(), status: 'ACTIVE' })
    await page.clock.fastForward(11_000)
    await agent.getByTestId('dev-status').getByText('ACTIVE').waitFor()

    await page.goto(`${base}/devices/machines`)
    const row = machineRow(page, 'HP LaserJet M404')
    await row.getByTestId('dev-availability').getByText('print only').waitFor()
    const text = await row.innerText()
    for (const value of ['HP', 'LaserJet M404', 'Piso 1', '10.0.0.7', 'Recepción', 'Bandeja 1, Manual']) {
      assert.include(text, value)
    }
    assert.equal((await row.getByTestId('dev-people').innerText()).trim(), '—')
    await checkA11y(page, 'machines, one')

    // Its location changed and Ana assigned (found by a part of her name, without its accent).
    await row.getByRole('button', { name: 'Edit HP LaserJet M404' }).click()
    const dialog = page.getByTestId('dev-machine-dialog')
    await dialog.getByLabel('Location').fill('Front desk')
    await dialog.getByLabel('Search people by name').fill('pere')
    await dialog.getByRole('status').getByText('1 person found.').waitFor()
    await dialog.getByLabel('Search people by name').fill('an')
    await dialog.getByRole('status').getByText('2 people found.').waitFor()
    await dialog.getByRole('button', { name: 'Assign Ana Pérez' }).click()
    await dialog.getByRole('list', { name: 'Assigned people' }).getByText('Ana Pérez').waitFor()
    await checkA11y(page, 'machine dialog')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    await row.getByTestId('dev-people').getByText('Ana Pérez').waitFor()
    assert.include(await row.innerText(), 'Front desk')
    assert.deepEqual(
      (await db.from('devices_machine_people').where('machine_id', machineId)).map((r) => Number(r.user_id)),
      [ana]
    )
    assert.equal((await db.from('devices_machines').where('id', machineId).first()).location, 'Front desk')

    // Its ten columns fit a desktop's width; on a tablet's the rows become cards.
    assert.isAtMost(await overflow(page), 0, 'the machines table fits 1280 px')
    assert.isAtMost(await sticksOut(page), 0, 'the machines table stays inside its card')
    await page.setViewportSize({ width: 900, height: 900 })
    await waitUntil(async () => (await row.evaluate((tr) => getComputedStyle(tr).display)) === 'block')
    assert.isAtMost(await overflow(page), 0, 'the machines cards fit 900 px')
    await page.goto(`${base}/devices/agents`)
    await agent.waitFor()
    assert.isAtMost(await sticksOut(page), 0, 'the agents table stays inside its card at 900 px')
  })

  test('on a phone, in Chinese: the lists as cards that fit, a person taken off a machine', async ({ assert }) => {
    const { machineId } = await reportedMachine()
    const ana = await person('ana_dev', 'Ana', 'Pérez')
    await db.table('devices_machine_people').insert({ machine_id: machineId, user_id: ana })
    await makeUser({ username: 'admin_dev', role: 'superuser' })
    const page = await zh.signedIn('admin_dev', PHONE)

    await page.goto(`${base}/devices/agents`)
    const agent = agentRow(page, 'Recepción')
    await agent.getByTestId('dev-status').getByText('活动').waitFor()
    await page.getByRole('heading', { name: '代理', exact: true, level: 1 }).waitFor()
    assert.isAtMost(await overflow(page), 0, 'the agents list does not overflow sideways')
    assert.isAtMost((await agent.boundingBox())!.width, PHONE.width)
    await checkA11y(page, 'agents, phone')
    assert.deepEqual(await english(page, 'zh', REPORTED), [])

    await page.goto(`${base}/devices/machines`)
    const row = machineRow(page, 'HP LaserJet M404')
    await row.getByTestId('dev-availability').getByText('仅打印').waitFor()
    // A card: each value beside its column's name, the table's header row out of sight.
    const location = row.locator('td', { hasText: 'Piso 1' })
    assert.equal(await location.evaluate((td) => getComputedStyle(td, '::before').content), '"位置"')
    assert.isTrue(await page.locator('.dev-table thead').evaluate((head) => head.getBoundingClientRect().height <= 1))
    assert.isAtMost(await overflow(page), 0, 'the machines list does not overflow sideways')
    await checkA11y(page, 'machines, phone')
    // IP: an abbreviation Chinese writes in Latin letters too ("IP 地址").
    assert.deepEqual(
      await english(page, 'zh', [...REPORTED, 'HP', 'LaserJet M404', 'Bandeja 1, Manual', 'Ana Pérez', 'IP']),
      []
    )

    await row.getByRole('button', { name: '编辑 HP LaserJet M404' }).click()
    const dialog = page.getByTestId('dev-machine-dialog')
    await dialog.getByRole('button', { name: '移除 Ana Pérez' }).click()
    await dialog.getByText('尚未指定任何人员。').waitFor()
    const box = (await dialog.boundingBox())!
    assert.isAtMost(box.x + box.width, PHONE.width, 'the dialog fits the phone')
    await checkA11y(page, 'machine dialog, phone')
    await dialog.getByRole('button', { name: '保存' }).click()
    await dialog.waitFor({ state: 'detached' })
    await waitUntil(async () => (await db.from('devices_machine_people').where('machine_id', machineId)).length === 0)
    await row.getByTestId('dev-people').getByText('—', { exact: true }).waitFor()
  })

  test('a teacher is offered neither screen, and the routes refuse them', async ({ assert }) => {
    await reportedMachine()
    await makeUser({ username: 'docente_dev', role: 'teacher' })
    const page = await es.signedIn('docente_dev')
    const nav = page.getByTestId('home-nav')
    await nav.locator('a').first().waitFor()
    const hrefs = await nav.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
    assert.notInclude(hrefs, '/devices/agents')
    assert.notInclude(hrefs, '/devices/machines')

    // The screens open, but the routes refuse: their message, not a list.
    for (const path of ['/devices/agents', '/devices/machines']) {
      await page.goto(`${base}${path}`)
      await page.getByRole('alert').getByText('No tienes permiso para esta acción').waitFor()
      assert.equal(await page.locator('[data-testid=dev-agent], [data-testid=dev-machine]').count(), 0)
    }
    const statuses = await page.evaluate(async () => {
      const headers = { accept: 'application/json', token: sessionStorage.getItem('tramita.token') ?? '' }
      const form = (fields: Record<string, string>) => {
        const body = new FormData()
        for (const [name, value] of Object.entries(fields)) body.set(name, value)
        return body
      }
      const calls: [string, string, FormData | undefined][] = [
        ['GET', '/api/devices/agents?case=GET', undefined],
        ['POST', '/api/devices/agents', form({ case: 'POST', name: 'Mío' })],
        ['GET', '/api/devices/machines?case=GET', undefined],
      ]
      const out: number[] = []
      for (const [method, url, body] of calls) out.push((await fetch(url, { method, headers, body })).status)
      return out
    })
    assert.deepEqual(statuses, [403, 403, 403])
    assert.lengthOf(await db.from('devices_agents').where('name', 'Mío'), 0)
  })
})
