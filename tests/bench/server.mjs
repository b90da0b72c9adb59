/**
 * `tramita serve` for a benchmark: a fresh SQLite data dir with the demo data (password
 * Tramita#2026 unless TRAMITA_DEMO_PASSWORD says otherwise), on a free port, answering /health.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
    server.on('error', reject)
  })
}

/** Waits until something answers /health on the port (any status). */
export async function ready(port, child) {
  for (let i = 0; i < 300; i++) {
    if (child && child.exitCode !== null) throw new Error(`the server exited at start (code ${child.exitCode})`)
    try {
      await fetch(`http://127.0.0.1:${port}/health`)
      return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`nothing answers on port ${port}`)
}

export async function startTramita(extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tramita-bench-'))
  const port = await freePort()
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['cli/bin/tramita.js', 'serve', '--migrate', '--seed-demo', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        TRAMITA_DATA_DIR: dataDir,
        REDIS_URL: '',
        DB_CONNECTION: 'sqlite',
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }
  )
  await ready(port, child)
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    url: `${origin}/data/config/infocompany`,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
