import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { freePort } from './processes.js'

/**
 * A private redis-server for outage tests: started on a port of its own (a free one, or the one an
 * app was already pointed at while nothing listened there) and killed by the test.
 */
export interface PrivateRedis {
  port: number
  url: string
  stop(): Promise<void>
}

export async function redisPort(): Promise<{ port: number; url: string }> {
  const port = await freePort()
  return { port, url: `redis://127.0.0.1:${port}` }
}

export async function startRedisServer(port: number): Promise<PrivateRedis> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  let output = ''
  const exited = once(child, 'exit')
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      if (output.includes('Ready to accept connections')) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    exited.then(() => reject(new Error(`redis-server exited before it was ready:\n${output}`)), reject)
  })
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGKILL')
      await exited
    },
  }
}
