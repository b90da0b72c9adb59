import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { hashToken, newToken } from '../../../../core/server/app/lib/tokens.ts'
import { waitUntil as waitFor } from '../../../../core/server/tests/helpers/wait.ts'
import { agentDir, put, startAgentAsNobody, type SyncAgent } from '../helpers/sync_agent.ts'
import { libraryBrowser, row } from './library_page.ts'
import { attachSockets } from '../../../devices/tests/functional/devices_fixtures.ts'

/**
 * A synchronized folder made from the new folder dialog in Chromium, on a phone (spec 001 §2, §8): the
 * agent picked among the connected ones, a path that does not exist refused with the spec's text in the
 * dialog, then the right path; the folder shows its agent, path and last sync, and the agent's file
 * arrives in it. A real agent process serves a real directory. axe checks the dialog and the folder.
 */
test.group('documents: a synchronized folder in Chromium', (group) => {
  const crowd = libraryBrowser(group)
  let agent: SyncAgent | undefined
  let root: string | undefined
  // The agents' socket on this test server, as a served node has it.
  group.setup(() => attachSockets())
  group.each.setup(async () => {
    await db.from('devices_agents').delete()
    return async () => {
      await agent?.stop()
      if (root) await rm(root, { recursive: true, force: true })
    }
  })
  group.each.timeout(120_000)

  test('made from the new folder dialog on a phone, refused first with the spec’s text', async ({ assert }) => {
    await makeUser({ username: 'admin_sync', role: 'superuser' })
    const token = newToken()
    const now = new Date()
    const [agentId] = await db.table('devices_agents').insert({
      name: 'Archivo central',
      status: 'WAITING',
      token_hash: hashToken(token),
      token_hint: token.slice(0, 6),
      created_at: now,
      updated_at: now,
    })
    agent = startAgentAsNobody(base, token)
    await waitFor(
      async () => Boolean((await db.from('devices_agents').where('id', agentId).first()).session),
      60_000,
      () => `the agent connected:\n${agent!.output()}`
    )
    root = await agentDir()
    await put(root, 'acta.txt', 'Acta desde el equipo')

    const page = await crowd.signedIn('admin_sync', PHONE)
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    await page.getByRole('button', { name: 'Nueva carpeta' }).click()
    const dialog = page.getByTestId('docs-folder-dialog')
    await dialog.getByLabel('Nombre de la carpeta').fill('Archivo')
    await dialog.getByLabel('Sincronizada con un agente').check()
    await dialog.getByRole('combobox').selectOption({ label: 'Archivo central (conectado)' })
    await dialog.getByLabel('Ruta en el equipo del agente').fill(join(root, 'no-existe'))
    await dialog.getByRole('button', { name: 'Crear' }).click()
    await dialog.getByRole('alert').getByText('La ruta enviada no existe en el agente.').waitFor()
    await checkA11y(page, 'new synchronized folder, refused')
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)

    await dialog.getByLabel('Ruta en el equipo del agente').fill(root)
    await dialog.getByRole('button', { name: 'Crear' }).click()
    await row(page, 'folder', 'Archivo').waitFor()
    assert.equal(await dialog.count(), 0)
    const folder = await db.from('documents_folders').where('name', 'Archivo').first()
    assert.include(folder, { type: 'synchronized', path: root, agent_id: Number(agentId) })

    // The folder shows where it syncs; the agent's file arrives (the list is read again on "Sync now").
    await row(page, 'folder', 'Archivo').getByRole('link').click()
    const panel = page.getByTestId('docs-sync')
    await panel.getByText('Archivo central (conectado)').waitFor()
    await panel.getByText(root).waitFor()
    await waitFor(
      async () =>
        Boolean(await db.from('documents_files').where('name', 'acta.txt').where('folder_id', folder.id).first()),
      30_000,
      'the agent’s file in the folder'
    )
    await panel.getByRole('button', { name: 'Sincronizar ahora' }).click()
    await page.reload()
    await row(page, 'file', 'acta.txt').waitFor()
    await page.getByTestId('docs-sync').getByText('Todavía no').waitFor({ state: 'detached' })
    await checkA11y(page, 'a synchronized folder')
    // The panel fits the phone (the file list below is the library's own table).
    const box = await page.getByTestId('docs-sync').boundingBox()
    assert.isAtMost(box!.x + box!.width, PHONE.width)
  })
})
