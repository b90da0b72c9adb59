import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { publishPermit, resetProcessTables } from '../../core/server/tests/helpers/process.ts'

/** Small real samples: a 2-page PDF, a Python file, one cube in six 3D formats (built by hand). */
const FIXTURES = fileURLToPath(new URL('./fixtures/viewers/', import.meta.url))
const fixture = (name: string) => ({
  name,
  mimeType: 'application/octet-stream',
  buffer: readFileSync(FIXTURES + name),
})
const MODELS = ['cubo.glb', 'cubo.gltf', 'cubo.obj', 'cubo.stl', 'cubo.ply', 'cubo.dae', 'cubo.fbx']
/** The 3D viewer's clear colour (ModelViewer BACKGROUND). */
const MODEL_BACKGROUND: [number, number, number] = [0xf1, 0xf2, 0xf6]
const WHITE: [number, number, number] = [255, 255, 255]

/**
 * The viewers of the file preview (issue 7 item 7; spec 000 §2 "Dialogs", 001 §2 "Document viewer"),
 * reached the way a user does: files uploaded to a form's file field, each opened from its thumbnail.
 */
test.group('file viewers in Chromium', (group) => {
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

  /** A new case of a form with an unlimited file field, the given files uploaded to it. */
  async function formWith(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    const form = await publishPermit({
      extraField: {
        field_name: 'adjuntos',
        type: 'file',
        data: { label: { value: 'Adjuntos' }, ref: { limit: -1 } },
      },
    })
    await makeUser({ username: 'solicitante', role: 'student' })
    const page = await session.signedIn('solicitante')
    // Nothing may come from another host (no CDN for pdf.js's worker, its data or three's decoders).
    const foreign: string[] = []
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(base) && !/^(blob|data):/.test(url)) foreign.push(url)
    })
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.locator('[data-field=adjuntos]').getByTestId('file-input').setInputFiles(files)
    for (const file of files) await page.locator(`[data-field=adjuntos] li[data-file="${file.name}"]`).waitFor()
    return { page, foreign }
  }

  async function open(page: Page, name: string): Promise<Locator> {
    await page.getByRole('button', { name: `Abrir ${name}` }).click()
    const preview = page.getByTestId('file-preview')
    await preview.waitFor()
    await preview.locator('.file-preview__name', { hasText: name }).waitFor()
    return preview
  }

  async function close(preview: Locator) {
    await preview.getByRole('button', { name: 'Cerrar' }).click()
    await preview.waitFor({ state: 'detached' })
  }

  /**
   * What a canvas shows on screen (a screenshot: WebGL's buffer cannot be read back once presented):
   * how many pixels differ from `background`, and their mean x as a share of the width.
   */
  async function painted(page: Page, canvas: Locator, background: [number, number, number]) {
    const png = (await canvas.screenshot()).toString('base64')
    return page.evaluate(
      async ({ png, background }) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob())
        const scratch = new OffscreenCanvas(bitmap.width, bitmap.height)
        const context = scratch.getContext('2d')!
        context.drawImage(bitmap, 0, 0)
        const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height)
        let count = 0
        let sumX = 0
        for (let i = 0; i < data.length; i += 4) {
          const off = [0, 1, 2].some((c) => Math.abs(data[i + c]! - background[c]!) > 24)
          if (!off) continue
          count++
          sumX += (i / 4) % width
        }
        return { share: count / (width * height), meanX: count ? sumX / count / width : 0 }
      },
      { png, background }
    )
  }

  test('a PDF shows page 1 of 2, goes to page 2 and zooms, by buttons and keys', async ({ assert }) => {
    const { page, foreign } = await formWith([fixture('dos-paginas.pdf')])
    const preview = await open(page, 'dos-paginas.pdf')
    assert.equal(await preview.getAttribute('data-kind'), 'pdf')
    const viewer = preview.getByTestId('pdf-viewer')
    const counter = viewer.getByTestId('pdf-page')
    await viewer.locator('canvas[data-rendered="1"]').waitFor()
    assert.equal(await counter.innerText(), 'Página 1 de 2')
    assert.equal(await viewer.getAttribute('data-pages'), '2')
    const canvas = viewer.locator('canvas')
    const first = await painted(page, canvas, WHITE)
    assert.isAbove(first.share, 0.05, 'page 1 is drawn')
    assert.isTrue(await viewer.getByRole('button', { name: 'Página anterior' }).isDisabled())

    await viewer.getByRole('button', { name: 'Página siguiente' }).click()
    await viewer.locator('canvas[data-rendered="2"]').waitFor()
    assert.equal(await counter.innerText(), 'Página 2 de 2')
    const second = await painted(page, canvas, WHITE)
    assert.isAbove(second.share, 0.05, 'page 2 is drawn')
    // Page 1's block is on the left, page 2's on the right: the canvas really shows the other page.
    assert.isAbove(second.meanX, first.meanX + 0.1)
    assert.isTrue(await viewer.getByRole('button', { name: 'Página siguiente' }).isDisabled())

    // Keys on the page itself: PageUp goes back, + zooms in.
    const width = (await canvas.boundingBox())!.width
    await viewer.locator('.viewer__scroll').focus()
    await page.keyboard.press('PageUp')
    await viewer.locator('canvas[data-rendered="1"]').waitFor()
    assert.equal(await counter.innerText(), 'Página 1 de 2')
    await page.keyboard.press('+')
    await page.waitForFunction(() => document.querySelector('[data-testid=pdf-zoom]')?.textContent === '125 %')
    await page.waitForFunction((before) => {
      const drawn = document.querySelector<HTMLCanvasElement>('[data-testid=pdf-viewer] canvas')
      return !!drawn && drawn.getBoundingClientRect().width > before * 1.2
    }, width)
    await viewer.getByRole('button', { name: 'Alejar' }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=pdf-zoom]')?.textContent === '100 %')

    await close(preview)
    assert.deepEqual(foreign, [])
  })

  test('a code file shows as text; the search counts matches and steps between them', async ({ assert }) => {
    const { page } = await formWith([fixture('tramite.py')])
    const preview = await open(page, 'tramite.py')
    assert.equal(await preview.getAttribute('data-kind'), 'text')
    const viewer = preview.getByTestId('text-viewer')
    const body = viewer.locator('pre')
    await body.getByText('def siguiente(caso):').waitFor()
    assert.equal(await body.innerText(), readFileSync(FIXTURES + 'tramite.py', 'utf8'))

    const search = viewer.getByRole('searchbox', { name: 'Buscar en el archivo' })
    const count = viewer.getByTestId('text-matches')
    const current = () => body.locator('mark[data-current]')
    await search.fill('ESTADO')
    await page.waitForFunction(() => document.querySelector('[data-testid=text-matches]')?.textContent === '1 de 8')
    assert.equal(await body.locator('mark').count(), 8)
    assert.equal(await current().getAttribute('data-match'), '0')

    await search.press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=text-matches]')?.textContent === '2 de 8')
    assert.equal(await current().getAttribute('data-match'), '1')
    await search.press('Shift+Enter')
    await search.press('Shift+Enter')
    // Before the first comes the last, at the end of the file: scrolled into view.
    await page.waitForFunction(() => document.querySelector('[data-testid=text-matches]')?.textContent === '8 de 8')
    assert.equal(await current().innerText(), 'estado')
    const inView = async () => {
      const mark = (await current().boundingBox())!
      const box = (await body.boundingBox())!
      return mark.y >= box.y && mark.y + mark.height <= box.y + box.height
    }
    await page.waitForFunction(() => {
      const mark = document.querySelector('[data-testid=text-viewer] mark[data-current]')!.getBoundingClientRect()
      const box = document.querySelector('[data-testid=text-viewer] pre')!.getBoundingClientRect()
      return mark.top >= box.top && mark.bottom <= box.bottom
    })
    assert.isAbove(await body.evaluate((pre) => pre.scrollTop), 0)

    await viewer.getByRole('button', { name: /Coincidencia siguiente/ }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=text-matches]')?.textContent === '1 de 8')
    assert.equal(await current().getAttribute('data-match'), '0')
    assert.isTrue(await inView())
    await viewer.getByRole('button', { name: /Coincidencia anterior/ }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=text-matches]')?.textContent === '8 de 8')

    await search.fill('no aparece')
    await page.waitForFunction(
      () => document.querySelector('[data-testid=text-matches]')?.textContent === 'Sin resultados'
    )
    assert.equal(await body.locator('mark').count(), 0)
    assert.isTrue(await viewer.getByRole('button', { name: /Coincidencia siguiente/ }).isDisabled())
    assert.equal(await count.innerText(), 'Sin resultados')
    await close(preview)
  })

  test('the 3D viewer draws each sample format and gives its WebGL context back on close', async ({ assert }) => {
    const { page, foreign } = await formWith(MODELS.map(fixture))
    for (const name of MODELS) {
      const preview = await open(page, name)
      assert.equal(await preview.getAttribute('data-kind'), 'model', name)
      const viewer = preview.locator('[data-testid=model-viewer][data-state=ready]')
      await viewer.waitFor()
      assert.equal(
        await viewer.getAttribute('aria-label'),
        'Modelo 3D: arrastra para girar, rueda para acercar, flechas para desplazar'
      )
      await preview.locator('.file-preview__loader').waitFor({ state: 'detached' })
      const drawn = await painted(page, viewer.locator('canvas'), MODEL_BACKGROUND)
      // The fitted cube fills a good part of the view, not a speck and not all of it.
      assert.isAbove(drawn.share, 0.03, `${name} is drawn`)
      assert.isBelow(drawn.share, 0.95, `${name} fits the view`)
      await page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=model-viewer] canvas')!
        ;(window as unknown as { viewerGl: WebGL2RenderingContext }).viewerGl = canvas.getContext('webgl2')!
      })
      await close(preview)
      const lost = await page.evaluate(() =>
        (window as unknown as { viewerGl: WebGL2RenderingContext }).viewerGl.isContextLost()
      )
      assert.isTrue(lost, `${name}: the WebGL context is released`)
    }
    assert.deepEqual(foreign, [])
  })

  test('an unsupported file, or one its viewer cannot read, shows the no-preview message with download', async ({
    assert,
  }) => {
    const { page } = await formWith([
      { name: 'plano.dwg', mimeType: 'application/octet-stream', buffer: Buffer.from('AC1032 plano de prueba') },
      { name: 'roto.glb', mimeType: 'application/octet-stream', buffer: Buffer.from('esto no es un modelo 3D') },
    ])
    for (const [name, kind] of [
      ['plano.dwg', 'other'],
      ['roto.glb', 'model'],
    ] as const) {
      const preview = await open(page, name)
      assert.equal(await preview.getAttribute('data-kind'), kind)
      await preview.getByText('No hay vista previa para este tipo de archivo').waitFor()
      const download = preview.locator('.file-preview__none').getByRole('link', { name: 'Descargar' })
      assert.equal(await download.getAttribute('download'), name)
      assert.equal(await preview.getByTestId('model-viewer').count(), 0)
      await close(preview)
    }
  })
})
