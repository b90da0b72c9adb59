import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, signIn as signInAs } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import AuditLog from '../../core/server/app/models/audit_log.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'
import User from '../../core/server/app/models/user.ts'

/** The users administration screen and impersonation with its banner and way back, in Chromium. */
test.group('users administration in Chromium', (group) => {
  let browser: Browser
  let page: Page

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetAuthTables()
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  const signIn = (user: string) => signInAs(page, user, PASSWORD)

  test('search, block and unblock, then impersonate with a reason and come back', async ({ assert }) => {
    await makeUser({ username: 'directora', role: 'supervisor' })
    await makeUser({ username: 'estudiante1', role: 'student' })
    await makeUser({ username: 'estudiante2', role: 'student' })
    await signIn('directora')
    await page.getByTestId('session-bar').getByRole('link', { name: 'Usuarios' }).click()
    const table = page.getByTestId('users-table')
    await table.locator('tr[data-username=estudiante2]').waitFor()
    await page.getByRole('searchbox').fill('estudiante1')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=users-table] tbody tr').length === 1)
    const row = table.locator('tr[data-username=estudiante1]')
    await row.getByRole('button', { name: 'Bloquear' }).click()
    await row.getByText('Bloqueado').waitFor()
    await row.getByRole('button', { name: 'Desbloquear' }).click()
    await row.getByText('Activo').waitFor()

    await row.getByRole('button', { name: 'Suplantar' }).click()
    await page.getByTestId('users-action').locator('input').fill('Revisar su bandeja')
    await page.getByTestId('users-action').locator('button[type=submit]').click()
    await page.waitForURL(`${base}/document_management`)
    const banner = page.getByTestId('impersonation-banner')
    await banner.waitFor()
    assert.include(await banner.innerText(), 'estudiante1')
    assert.include(await banner.innerText(), 'directora')
    const entry = await AuditLog.query().where('action', 'impersonate.start').firstOrFail()
    assert.equal(entry.data!.reason, 'Revisar su bandeja')

    await banner.getByRole('button').click()
    await page.getByTestId('session-bar').getByRole('link', { name: 'Usuarios' }).waitFor()
    assert.equal(await page.getByTestId('impersonation-banner').count(), 0)
    assert.include(await page.getByTestId('session-bar').innerText(), 'directora')
  })

  test('areas and roles: create, rename, delete; the spec roles stay fixed', async ({ assert }) => {
    await makeUser({ username: 'raiz', role: 'superuser' })
    await Area.query().where('name', 'like', 'E2E %').delete()
    await Role.query().whereIn('name', ['coordinador', 'coordinación']).delete()
    // Tall enough that the toasts (bottom right) do not cover the roles column.
    await page.setViewportSize({ width: 1280, height: 1200 })
    await signIn('raiz')
    await page.goto(`${base}/users?view=areas`)
    const areas = page.getByTestId('areas')
    await areas.getByLabel('Nueva área', { exact: true }).fill('E2E Norte')
    await areas.getByRole('button', { name: 'Agregar' }).click()
    await areas.locator('li[data-name="E2E Norte"]').waitFor()
    const row = areas.locator('li[data-name="E2E Norte"]')
    await row.getByLabel('Color de E2E Norte').fill('#22aa44')
    await row.getByRole('button', { name: 'Guardar' }).click()
    await page.locator('.toast', { hasText: 'Cambios guardados' }).nth(1).waitFor()
    assert.equal((await Area.findByOrFail('name', 'E2E Norte')).color.toLowerCase(), '#22aa44')

    const roles = page.getByTestId('roles')
    assert.equal(await roles.locator('li[data-name=superuser] input').count(), 0, 'a spec role has no name box')
    assert.equal(await roles.locator('li[data-name=superuser] button').count(), 0, 'nor buttons')
    await roles.getByLabel('Nuevo rol').fill('coordinador')
    await roles.getByRole('button', { name: 'Agregar' }).click()
    const custom = roles.locator('li[data-name=coordinador]')
    await custom.getByLabel('Nombre de coordinador').fill('coordinación')
    await custom.getByRole('button', { name: 'Guardar' }).click()
    await roles.locator('li[data-name=coordinación]').waitFor()
    page.once('dialog', (dialog) => dialog.accept())
    await roles.locator('li[data-name=coordinación]').getByRole('button', { name: 'Eliminar' }).click()
    await page.waitForFunction(() => !document.querySelector('[data-testid=roles] li[data-name=coordinación]'))
    assert.isNull(await Role.findBy('name', 'coordinación'))
  })

  test('profile: every field shown, edited with areas, roles and superior, cleared again', async ({ assert }) => {
    await makeUser({ username: 'raiz', role: 'superuser' })
    const jefa = await makeUser({ username: 'jefa', role: 'teacher' })
    const target = await makeUser({ username: 'camila', role: 'student' })
    await Area.query().where('name', 'E2E Sur').delete()
    const area = await Area.create({ name: 'E2E Sur', color: '#aa3366' })
    await signIn('raiz')
    await page.goto(`${base}/users`)
    await page.getByTestId('users-table').getByRole('link', { name: 'camila' }).click()
    await page.waitForURL(`${base}/users/${target.id}`)
    const view = page.getByTestId('profile-view')
    await view.waitFor()
    assert.equal(await view.locator('dd[data-field=roles]').innerText(), 'Estudiante')
    for (const name of ['document_number', 'mobile', 'birth_date', 'stratum', 'parent_id', 'gender']) {
      assert.equal(await view.locator(`dd[data-field=${name}]`).innerText(), '—', name)
    }

    await view.getByRole('button', { name: 'Editar' }).click()
    const form = page.getByTestId('profile-edit')
    await form.getByLabel('Tipo de documento').fill('TI')
    await form.getByLabel('Número de documento').fill('1012345678')
    await form.getByLabel('Celular').fill('3001234567')
    await form.getByLabel('Fecha de nacimiento').fill('2011-04-09')
    await form.getByLabel('Estrato').fill('3')
    await form.getByLabel('Género').selectOption('female')
    await form.getByLabel('Superior').selectOption(String(jefa.id))
    await form.getByLabel('E2E Sur').check()
    await form.getByLabel('Docente').check()
    await form.getByRole('button', { name: 'Guardar' }).click()
    await view.waitFor()
    assert.equal(await view.locator('dd[data-field=document_number]').innerText(), '1012345678')
    assert.equal(await view.locator('dd[data-field=gender]').innerText(), 'Femenino')
    assert.equal(await view.locator('dd[data-field=parent_id]').innerText(), 'jefa Test')
    assert.equal(await view.locator('dd[data-field=areas]').innerText(), 'E2E Sur')
    assert.equal(await view.locator('dd[data-field=roles]').innerText(), 'Docente, Estudiante')

    await target.refresh()
    await target.load('areas')
    await target.load('roles')
    assert.equal(target.parentId, jefa.id)
    assert.equal(target.birthDate?.toISODate(), '2011-04-09')
    assert.equal(target.stratum, 3)
    assert.deepEqual(
      target.areas.map((a) => a.id),
      [area.id]
    )
    assert.sameMembers(
      target.roles.map((r) => r.name),
      ['teacher', 'student']
    )

    // Emptying a field clears it; the tree then shows camila under nobody.
    await page.reload()
    await view.getByRole('button', { name: 'Editar' }).click()
    await form.getByLabel('Celular').fill('')
    await form.getByLabel('Superior').selectOption('')
    await form.getByLabel('E2E Sur').uncheck()
    await form.getByRole('button', { name: 'Guardar' }).click()
    await view.waitFor()
    assert.equal(await view.locator('dd[data-field=mobile]').innerText(), '—')
    const fresh = await User.findOrFail(target.id)
    assert.isNull(fresh.mobile)
    assert.isNull(fresh.parentId)
    assert.equal(fresh.documentNumber, '1012345678', 'untouched fields stay')
  })

  test('tree: subordinates under their superior, collapse and search', async ({ assert }) => {
    await makeUser({ username: 'raiz', role: 'superuser' })
    const rectora = await makeUser({ username: 'rectora', role: 'supervisor' })
    const profe = await makeUser({ username: 'profe', role: 'teacher' })
    const alumna = await makeUser({ username: 'alumna', role: 'student' })
    profe.parentId = rectora.id
    await profe.save()
    alumna.parentId = profe.id
    await alumna.save()
    await signIn('raiz')
    await page.goto(`${base}/users`)
    await page.getByRole('tab', { name: 'Árbol' }).click()
    await page.waitForURL(`${base}/users?view=tree`)
    const tree = page.getByTestId('users-tree')
    const nested = tree.locator('li[data-username=rectora] li[data-username=profe] li[data-username=alumna]')
    await nested.waitFor()
    assert.equal(await tree.locator('li[data-username=alumna]').getAttribute('aria-level'), '3')

    await page.getByRole('button', { name: 'Contraer rectora' }).click()
    await page.waitForFunction(() => !document.querySelector('li[data-username=profe]'))
    assert.equal(await tree.locator('li[data-username=rectora]').getAttribute('aria-expanded'), 'false')
    await page.getByRole('button', { name: 'Expandir rectora' }).click()
    await nested.waitFor()

    await page.getByRole('searchbox').fill('alumna')
    await page.waitForFunction(() => !document.querySelector('li[data-username=raiz]'))
    assert.equal(await nested.count(), 1, 'the match keeps the branch that leads to it')
    await nested.getByRole('link').click()
    await page.waitForURL(`${base}/users/${alumna.id}`)
  })
})
