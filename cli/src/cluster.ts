import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'

/**
 * `tramita serve --workers N`: a primary process that runs N HTTP processes (node:cluster) on one
 * port. It holds no application state: each HTTP process is a whole app node, sharing the database,
 * Redis and the object store with every other node, here or on other hosts.
 */

/** A process that dies within this long after its start counts as a crash in a row (its back-off grows). */
const HEALTHY_AFTER_MS = 60_000
const FIRST_RESTART_MS = 500
const MAX_RESTART_MS = 30_000
/** How long the primary waits for its processes to end after SIGTERM before it kills them. */
const STOP_LIMIT_MS = 20_000

/**
 * One process per core in production with Redis (the node's sockets, jobs and limits are then shared);
 * one otherwise: without Redis the queue, the socket fan-out and SQLite's writer live in one process.
 */
export function defaultHttpProcesses(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === 'production' && env.REDIS_URL ? availableParallelism() : 1
}

/** The delay before restarting a process that crashed `inARow` times in a row (1-based). */
export function restartDelay(inARow: number): number {
  return Math.min(MAX_RESTART_MS, FIRST_RESTART_MS * 2 ** Math.max(0, inARow - 1))
}

interface Slot {
  worker?: Worker
  startedAt: number
  crashes: number
  timer?: NodeJS.Timeout
}

/**
 * Runs the primary until SIGTERM/SIGINT, then stops every process (SIGTERM, each drains as a single
 * node does) and exits. With `migrate`, the first process starts alone and prepares a new database
 * (TRAMITA_AUTO_MIGRATE); the others start once it listens, so no two migrate at once. A process that
 * dies is restarted with a back-off; one that fails before any process ever listened ends the primary
 * (a configuration error, such as a port in use, would only fail again).
 */
export async function runPrimary(count: number, autoMigrate: string | undefined): Promise<void> {
  delete process.env.TRAMITA_AUTO_MIGRATE
  const slots: Slot[] = Array.from({ length: count }, () => ({ startedAt: 0, crashes: 0 }))
  let stopping = false
  let everListened = false
  const log = (line: string) => console.log(`[primary ${process.pid}] ${line}`)

  const fork = (index: number, env: Record<string, string> = {}): Promise<boolean> => {
    const slot = slots[index]!
    slot.startedAt = Date.now()
    const worker = cluster.fork({ TRAMITA_HTTP_PROCESS: String(index + 1), ...env })
    slot.worker = worker
    return new Promise((listening) => {
      worker.once('listening', () => {
        everListened = true
        listening(true)
      })
      worker.once('exit', (code, signal) => {
        listening(false)
        if (slot.worker !== worker) return
        slot.worker = undefined
        if (stopping) return
        if (!everListened) {
          log(`HTTP process ${index + 1} ended before listening (${signal ?? `exit ${code}`}); stopping`)
          void stopAll(1)
          return
        }
        slot.crashes = Date.now() - slot.startedAt > HEALTHY_AFTER_MS ? 1 : slot.crashes + 1
        const delay = restartDelay(slot.crashes)
        log(
          `HTTP process ${index + 1} (pid ${worker.process.pid}) ended (${signal ?? `exit ${code}`}); restarting in ${delay} ms`
        )
        slot.timer = setTimeout(() => void fork(index), delay)
      })
    })
  }

  const stopAll = async (exitCode: number) => {
    if (stopping) return
    stopping = true
    for (const slot of slots) clearTimeout(slot.timer)
    const running = slots.flatMap((slot) => (slot.worker && !slot.worker.isDead() ? [slot.worker] : []))
    const ended = running.map((worker) => new Promise((done) => worker.once('exit', done)))
    for (const worker of running) worker.process.kill('SIGTERM')
    const limit = setTimeout(() => {
      log(`still running after ${STOP_LIMIT_MS} ms: killing`)
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL')
    }, STOP_LIMIT_MS)
    await Promise.all(ended)
    clearTimeout(limit)
    log('stopped')
    process.exit(exitCode)
  }
  process.once('SIGTERM', () => void stopAll(0))
  process.once('SIGINT', () => void stopAll(0))

  const first = await fork(0, autoMigrate ? { TRAMITA_AUTO_MIGRATE: autoMigrate } : {})
  if (!first) return
  const rest = await Promise.all(slots.slice(1).map((_, i) => fork(i + 1)))
  if (rest.every(Boolean)) log(`${count} HTTP processes listening`)
}

/** In an HTTP process: the primary alone decides when to stop (a terminal's Ctrl-C reaches the whole group). */
export function inHttpProcess(): boolean {
  if (!cluster.isWorker) return false
  process.on('SIGINT', () => {})
  // The channel to the primary must not keep a stopped node alive: it ends, as a lone node does, once
  // its server and connections are closed.
  process.channel?.unref()
  return true
}
