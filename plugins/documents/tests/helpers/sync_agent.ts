import { spawn, type ChildProcess } from 'node:child_process'
import { chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A real `tramita agent` for the synchronized folders' tests, run as `nobody` (uid 65534): the tests run
 * as root, for whom every permission check passes, so a directory with mode 000 is unreadable only to
 * another user. Its directories and files belong to that user, as they would on its computer.
 */

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))
export const NOBODY = 65534

export interface SyncAgent {
  child: ChildProcess
  output(): string
  stop(): Promise<void>
}

export function startAgentAsNobody(server: string, token: string, args: string[] = []): SyncAgent {
  const child = spawn(process.execPath, ['cli/bin/tramita.js', 'agent', '--server', server, '--no-discover', ...args], {
    cwd: REPO,
    env: { ...process.env, HOME: tmpdir(), TRAMITA_AGENT_TOKEN: token, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    uid: NOBODY,
    gid: NOBODY,
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    child,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** A directory the agent's user owns. */
export async function agentDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tramita-sync-test-'))
  await chown(dir, NOBODY, NOBODY)
  return dir
}

/** A file under `root` (its folders made), owned by the agent's user. */
export async function put(root: string, rel: string, content: string): Promise<void> {
  const path = join(root, rel)
  const parent = dirname(path)
  await mkdir(parent, { recursive: true })
  for (let dir = parent; dir.startsWith(root) && dir !== root; dir = dirname(dir)) await chown(dir, NOBODY, NOBODY)
  await writeFile(path, content)
  await chown(path, NOBODY, NOBODY)
}
