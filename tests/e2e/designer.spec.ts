import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people } from './session.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * The designer's shell as the core serves it under /designer: the built page and its assets, the
 * session shared with the runtime, the forms listed and one read through the model.
 */
test.group('the form designer shell in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, DEFAULT_DEMO_PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    await db.from('user_areas').delete()
    await db.from('areas').delete()
    await seedDemo()
    return () => session.closeAll()
  })

  test('served under /designer with cached assets; without a session it links to sign-in', async ({ assert }) => {
    const page = await session.open()
    const response = await page.goto(`${base}/designer`)
    assert.equal(response?.status(), 200)
    assert.equal(response?.headers()['cache-control'], 'no-cache')
    const link = page.getByTestId('sign-in-needed').getByRole('link')
    await link.waitFor()
    assert.equal(await link.getAttribute('href'), '/')
    const script = await page.locator('script[type=module]').getAttribute('src')
    assert.match(script!, /^\/designer\/assets\/index-.+\.js$/)
    const asset = await page.request.get(`${base}${script}`)
    assert.equal(asset.status(), 200)
    assert.equal(asset.headers()['cache-control'], 'public, max-age=31536000, immutable')
    // A deep link is the designer's page too, and the runtime keeps everything else.
    const deep = await page.request.get(`${base}/designer/forms/1`)
    assert.include(await deep.text(), '/designer/assets/')
    const runtime = await page.request.get(`${base}/designerx`)
    assert.notInclude(await runtime.text(), '/designer/assets/')
  })

  test('a supervisor signed in to the runtime lists the forms and opens one through the model', async ({ assert }) => {
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer`)
    const link = page.getByTestId('forms').getByRole('link', { name: /Solicitud de permiso/ })
    await link.click()
    await page.waitForURL(/\/designer\/forms\/\d+$/)
    await page.getByTestId('form-view').waitFor()
    assert.isAtLeast(await page.getByTestId('page').count(), 1)
    assert.isAtLeast(await page.getByTestId('item').count(), 3)
    assert.equal(await page.getByTestId('problems').innerText(), 'Sin problemas: se puede publicar')
  })

  test('a supervisor designs by drag and drop (mouse and keyboard), undoes and redoes; the draft follows', async ({
    assert,
  }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const text = (name: string, label: string) => ({
      field_name: name,
      type: 'text',
      data: { label: { value: label } },
    })
    const { formId } = await createForm(
      {
        name: 'Diseño e2e',
        jsonconfig: {
          form: {
            pages: [
              { name: 'Uno', layout: [['a'], ['b', 'c']] },
              { name: 'Dos', layout: [['d']] },
            ],
          },
          fields: [text('a', 'Campo A'), text('b', 'Campo B'), text('c', 'Campo C'), text('d', 'Campo D')],
          elements: [],
        },
        process: recordOnlyProcess('Diseño e2e'),
      },
      Number(supervisor.id)
    )
    const savedLayout = async () => {
      const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
      return JSON.parse(draft.jsonconfig).form.pages.map((p: { layout: string[][] }) => p.layout)
    }
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('palette').waitFor()
    const status = page.getByTestId('save-status')
    const saved = () => page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    const rowNames = (row: number) =>
      page
        .getByTestId('row')
        .nth(row)
        .getByTestId('item')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-name')))
    const drag = async (from: string, to: string) => {
      const start = (await page.locator(from).boundingBox())!
      const end = (await page.locator(to).boundingBox())!
      await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
      await page.mouse.down()
      await page.mouse.move(start.x + start.width / 2 + 10, start.y + start.height / 2, { steps: 3 })
      await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 10 })
      await page.locator(to).and(page.locator('.dzone--over')).waitFor()
      await page.mouse.up()
    }
    assert.equal(await status.getAttribute('data-state'), 'saved')

    // The mouse: a date field from the palette to the end of the first row, then c before a.
    await drag('[data-testid=palette-entry][data-kind=field][data-type=date]', '[data-drop="slot:0:0:1"]')
    await page.locator('[data-testid=item][data-name=date_1]').waitFor()
    assert.deepEqual(await rowNames(0), ['a', 'date_1'])
    await drag('[data-testid=item][data-name=c]', '[data-testid=item][data-name=a]')
    assert.deepEqual(await rowNames(0), ['c', 'a', 'date_1'])
    assert.deepEqual(await rowNames(1), ['b'])
    await saved()
    assert.deepEqual(await savedLayout(), [[['c', 'a', 'date_1'], ['b']], [['d']]])

    // The keyboard alone: c picked up with space, up to a new row above, dropped with space.
    await page.locator('[data-testid=item][data-name=c]').focus()
    await page.keyboard.press('Space')
    // As a person would, the arrow comes once the drag has started: dnd-kit's keyboard sensor
    // listens for moves only after the render that starts the drag.
    await page.locator('.ditem--dragging').waitFor({ state: 'attached' })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    await page.keyboard.press('ArrowUp')
    await page.locator('[data-drop="row:0:0"].dzone--over').waitFor()
    await page.keyboard.press('Space')
    await page.getByTestId('row').nth(2).waitFor()
    assert.deepEqual(await rowNames(0), ['c'])
    assert.deepEqual(await rowNames(1), ['a', 'date_1'])
    assert.match(await page.locator('[id^=DndLiveRegion]').innerText(), /Campo C/)

    // Undo with the button, redo with the keys.
    await page.getByTestId('undo').click()
    assert.deepEqual(await rowNames(0), ['c', 'a', 'date_1'])
    await page.keyboard.press('Control+Shift+Z')
    await page.getByTestId('row').nth(2).waitFor()
    assert.deepEqual(await rowNames(0), ['c'])
    assert.deepEqual(await rowNames(2), ['b'])

    await saved()
    assert.deepEqual(await savedLayout(), [[['c'], ['a', 'date_1'], ['b']], [['d']]])
    assert.equal(await page.getByTestId('problems').innerText(), 'Sin problemas: se puede publicar')
  })

  test('a two-step process with an approval is designed, published and run by a user; versions compare', async ({
    assert,
  }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const admin = await db.from('users').where('username', 'admin').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Permiso e2e',
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['nombre']] }] },
          fields: [{ field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } }],
          elements: [],
        },
        process: recordOnlyProcess('Permiso e2e'),
      },
      Number(supervisor.id)
    )
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('view-process').click()
    const editor = page.getByTestId('process-editor')
    await editor.waitFor()

    // A state, a fill step for the admin, then an approval step after it.
    await editor.getByLabel('Nuevo estado').fill('En revisión')
    await editor.getByRole('button', { name: 'Agregar estado' }).click()
    await editor.getByTestId('state-en_revision').waitFor()
    const addStep = async (label: string, kind: string) => {
      await editor.locator('.process-add-step').getByLabel('Nombre del paso').fill(label)
      await editor.locator('.process-add-step').getByLabel('Tipo').selectOption(kind)
      await editor.getByRole('button', { name: 'Agregar paso' }).click()
    }
    await addStep('Revisión', 'fill')
    const review = editor.getByTestId('step-revision')
    await review.getByLabel('Quién').selectOption(String(admin.id))
    await review.getByLabel('Estado al asignarlo').selectOption('en_revision')
    await addStep('Aprobación', 'approve')
    await review.getByLabel('Sigue a').selectOption('aprobacion')
    const approval = editor.getByTestId('step-aprobacion')
    await approval.getByLabel('Quién').selectOption(String(admin.id))

    // Nombre shows to the starter and on the review, not on the approval.
    const shown = editor.getByTestId('shown-on-steps')
    await shown.getByLabel('Nombre en Al iniciar').check()
    await shown.getByLabel('Nombre en Revisión').check()

    await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
    assert.deepEqual(JSON.parse(draft.jsonconfig).fields[0].show_on_task, ['start', 'revision'])
    const process = JSON.parse(draft.process)
    assert.deepEqual(process.start, { step: 'revision' })
    assert.deepEqual(
      process.steps.map((s: { id: string; kind: string; next?: { step: string | null } }) => [
        s.id,
        s.kind,
        s.next?.step,
      ]),
      [
        ['revision', 'fill', 'aprobacion'],
        ['aprobacion', 'approve', undefined],
      ]
    )
    assert.deepEqual(
      process.steps[1].decisions.map((d: { label: string }) => d.label),
      ['Aprobar', 'Rechazar']
    )

    await page.getByTestId('publish').click()
    await page.getByTestId('published').waitFor()
    const published = await db.from('form_versions').where('form_id', formId).whereNotNull('published_at').first()
    assert.equal(published?.version, 1)

    // The runtime runs it: a user starts a case, which goes to the review step of the designed process.
    const form = await db.from('forms').where('id', formId).firstOrFail()
    const applicant = await session.signedIn('student')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Ana Ruiz')
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    const started = await db.from('cases').where('form_id', formId).firstOrFail()
    assert.equal(started.state, 'en_revision')
    assert.equal(JSON.parse(started.values).nombre, 'Ana Ruiz')
    const task = await db.from('tasks').where('case_id', started.id).where('status', 'pending').firstOrFail()
    assert.include(task, { step_id: 'revision', assignee_type: 'user', assignee_id: Number(admin.id) })

    // The versions view compares the draft being designed with version 1.
    await page.getByTestId('view-form').click()
    await editor.waitFor({ state: 'detached' })
    await page.getByTestId('view-versions').click()
    const diff = page.getByTestId('version-diff')
    await diff.waitFor()
    // Nothing changed since publishing: the draft and version 1 are the same.
    assert.match(await diff.getByRole('status').innerText(), /^0 /)
  })

  test('a Form.io form and a SurveyJS survey are imported in the JSON view and published', async ({ assert }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const files = {
      formio: {
        components: [
          { type: 'textfield', key: 'nombre', label: 'Nombre', input: true, validate: { required: true } },
          { type: 'email', key: 'correo', label: 'Correo', input: true },
          { type: 'weird', key: 'raro', label: 'Raro' },
        ],
      },
      surveyjs: {
        pages: [{ name: 'p1', elements: [{ type: 'text', name: 'edad', title: 'Edad', inputType: 'number' }] }],
      },
    }
    const page = await session.signedIn('supervisor')
    for (const [format, content] of Object.entries(files)) {
      const { formId } = await createForm(
        {
          name: `Importado ${format}`,
          jsonconfig: { form: { pages: [{ name: 'Vacía', layout: [] }] }, fields: [], elements: [] },
          process: recordOnlyProcess(`Importado ${format}`),
        },
        Number(supervisor.id)
      )
      await page.goto(`${base}/designer/forms/${formId}`)
      await page.getByTestId('view-json').click()
      await page.getByTestId('json-import').setInputFiles({
        name: `${format}.json`,
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(content)),
      })
      const imported = page.getByTestId('json-imported')
      await imported.waitFor()
      assert.include(await imported.innerText(), format)
      if (format === 'formio') assert.include(await imported.innerText(), '/components/2')
      await page.getByTestId('json-use-import').click()
      await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
      await page.getByTestId('publish').click()
      await page.getByTestId('published').waitFor()
      const version = await db.from('form_versions').where('form_id', formId).whereNotNull('published_at').firstOrFail()
      const fields = JSON.parse(version.jsonconfig).fields.map((f: { field_name: string }) => f.field_name)
      assert.deepEqual(fields, format === 'formio' ? ['nombre', 'correo'] : ['edad'])
    }
  })

  test('the property panel makes a field required and gives it a condition; a script with a type error is blocked', async ({
    assert,
  }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Panel e2e',
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['edad', 'nombre']] }] },
          fields: [
            { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
            { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
          ],
          elements: [],
        },
        process: recordOnlyProcess('Panel e2e'),
      },
      Number(supervisor.id)
    )
    const stored = async () => {
      const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
      return JSON.parse(draft.jsonconfig).fields.find((f: { field_name: string }) => f.field_name === 'nombre')
    }
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.locator('[data-testid=item][data-name=nombre]').click()
    const panel = page.getByRole('complementary', { name: 'Propiedades' })
    await panel.getByRole('switch', { name: 'Obligatorio' }).check()
    await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    assert.deepEqual((await stored()).data.validate, { required: true })

    // A condition with a misspelt field: its error is shown and nothing is stored.
    await panel.getByRole('button', { name: 'Scripts' }).click()
    await panel.getByTestId('edit-script-show_with_formule').click()
    const editor = panel.locator('.monaco-editor').first()
    await editor.waitFor()
    await editor.click()
    // Typed at a person's pace: Monaco's completion list opens and follows the keystrokes.
    await page.keyboard.type('edadd > 18', { delay: 40 })
    await panel.getByTestId('script-blocked').waitFor()
    await panel
      .locator('.script-problems', { hasText: "'edadd'" })
      .waitFor({ timeout: 10_000 })
      .catch(async (error: Error) => {
        const code = await panel.locator('.view-lines').first().innerText()
        throw new Error(`${error.message}\n${code}\n${await panel.locator('.script-problems').innerText()}`)
      })
    assert.notProperty((await stored()).data, 'show_with_formule')

    // Fixed (with the narrowing an empty number field needs), it is stored and saved.
    await page.keyboard.press('Control+A')
    await page.keyboard.type("edad !== '' && edad > 18", { delay: 40 })
    await panel
      .getByTestId('script-blocked')
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(async (error: Error) => {
        const code = await panel.locator('.view-lines').first().innerText()
        const problems = await panel.locator('.script-problems').innerText()
        throw new Error(`${error.message}\n${code}\n${problems}`)
      })
    await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    for (let i = 0; i < 50 && !(await stored()).data.show_with_formule; i++) await page.waitForTimeout(100)
    assert.equal((await stored()).data.show_with_formule, "edad !== '' && edad > 18")

    // Try it: the condition runs in the browser's sandbox on sample values (an empty age: hidden).
    const trial = panel.getByRole('region', { name: 'Probar' })
    await trial.getByRole('button', { name: 'Ejecutar' }).click()
    await trial.locator('.try-script-result').waitFor()
    assert.include(await trial.locator('.try-script-result').innerText(), 'false')
  })

  test('the preview shows the form as designed with the runtime, per device and case', async ({ assert }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Vista previa e2e',
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['nombre', 'edad']] }] },
          fields: [
            { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
            { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
          ],
          elements: [],
        },
        process: recordOnlyProcess('Vista previa e2e'),
      },
      Number(supervisor.id)
    )
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('view-preview').click()
    const frame = page.frameLocator('[data-testid=preview-frame]')
    await frame.getByTestId('preview').waitFor()
    assert.equal(await frame.getByTestId('preview').getAttribute('data-device'), 'computer')
    await frame.getByLabel('Nombre').fill('Ana')
    await frame.getByTestId('form-send').click()
    assert.include(await frame.getByTestId('preview-sent').innerText(), '"nombre": "Ana"')

    // A phone-wide frame is the runtime's mobile layout; a change in the designer reaches the preview.
    await page.getByTestId('preview-view').getByRole('radio', { name: 'Móvil' }).check()
    await frame.locator('[data-testid=preview][data-device=mobile]').waitFor()
    await page.getByTestId('view-form').click()
    await page.locator('[data-testid=item][data-name=edad]').click()
    await page
      .getByRole('complementary', { name: 'Propiedades' })
      .getByRole('textbox', { name: 'Etiqueta', exact: true })
      .first()
      .fill('Edad en años')
    await page.getByTestId('view-preview').click()
    await frame.getByLabel('Edad en años').waitFor()
  })

  test('a user without a designing role sees the refusal', async ({ assert }) => {
    const page = await session.signedIn('teacher')
    await page.goto(`${base}/designer`)
    const failure = page.getByTestId('failure')
    await failure.waitFor()
    assert.notEqual((await failure.innerText()).trim(), '')
  })
})
