import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { type Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { CASES } from '../../core/sandbox/tests/cases.ts'
import type { HarnessReport } from '../../core/sandbox/tests/browser/harness.ts'

const HARNESS = fileURLToPath(new URL('../../core/sandbox/tests/browser/', import.meta.url))
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' }

/** Serves `dir` on 127.0.0.1 at a free port. */
async function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html'
    try {
      const body = await readFile(join(dir, path))
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` }
}

test.group('script sandbox in Chromium', (group) => {
  let report: HarnessReport

  group.setup(async () => {
    const out = await mkdtemp(join(tmpdir(), 'tramita-sandbox-harness-'))
    // Vite's default worker format (iife) cannot hold QuickJS's lazily loaded chunk.
    await build({
      root: HARNESS,
      configFile: false,
      logLevel: 'error',
      build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
      worker: { format: 'es' },
    })
    const { server, url } = await serve(out)
    const browser: Browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.goto(url)
      await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'running', undefined, {
        timeout: 90_000,
      })
      const error = await page.evaluate(() => (window as unknown as { sandboxError?: string }).sandboxError)
      if (error) throw new Error(`the harness failed: ${error}`)
      report = await page.evaluate(() => (window as unknown as { sandboxResults: HarnessReport }).sandboxResults)
    } finally {
      await browser.close()
      server.close()
      await rm(out, { recursive: true, force: true })
    }
  })

  test('{name}, in a Web Worker')
    .with(CASES)
    .run(({ assert }, c) => {
      assert.deepEqual(report.worker[c.name], [])
    })

  test('{name}, in the page')
    .with(CASES.filter((c) => !c.needsWatchdog))
    .run(({ assert }, c) => {
      assert.deepEqual(report.page[c.name], [])
    })

  test('the worker watchdog replaced the worker stuck in native code', ({ assert }) => {
    assert.isAtLeast(report.restarts, 1)
  })

  test("QuickJS's stack limit stops recursion before the native stack runs out", ({ assert }) => {
    assert.deepEqual(report.faults, { worker: 0, page: 0 })
  })

  test('a batch in the worker: shared vars, own vars, isolated errors', ({ assert }) => {
    assert.deepEqual(report.batch, [
      { ok: true, value: 3, effects: [] },
      { ok: true, value: 12, effects: [] },
      { ok: false, error: { code: 'SCRIPT_ERROR', message: "variable 'nope' not found" } },
    ])
  })
})
