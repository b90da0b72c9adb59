import type { ApplicationService } from '@adonisjs/core/types'
import env from '#start/env'
import { checkCommits } from '#lib/checked_commit'
import { appUrl as publicUrl } from '#lib/app_url'
import { createQueue } from '#jobs/create_queue'
import proxyAddr from 'proxy-addr'
import { SocketHub } from '#sockets/hub'
import { PeerHub } from '#sockets/peers'
import { anonymousSocketTerms } from '#sockets/anonymous'
import { PluginHost } from '#plugins/host'
import { loadDefinitions, pluginDir } from '#plugins/enabled'
import { PluginServiceFactory } from '#plugins/services/factory'
import { enqueueSchedules, periodEnqueueOptions } from '#plugins/services/jobs'
import { mountDeclaredRoutes } from '#plugins/services/mount'
import { pluginMailJob } from '#plugins/services/mail'
import { setPlatform, type Platform } from '#services/platform'
import { findSession } from '#services/session_service'
import { pruneJobEffectsJob, pruneSessionsJob, pruneUploadsJob } from '#services/maintenance_jobs'
import { sweepAbandonedRequests } from '#lib/request_folders'
import { recoveryMailJob, securityNoticeJob } from '#services/auth/recovery'
import { closeScripts } from '#services/scripts'
import { taskNoticeJob } from '#services/process/notices'
import { OutboxRelay } from '#services/job_outbox'
import { connectRateLimitStore, rateLimit } from '#services/rate_limits'

/** Connection attempts of plugins' programs (device agents) per address and minute. */
const PROGRAM_CONNECTS_PER_MINUTE = 60

/** How long a served node's shutdown may take before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 15_000

/**
 * Builds the platform (queue, sockets, plugins) once the framework has booted, attaches the socket
 * hub to the HTTP server when serving, runs the in-process worker in the embedded mode, and takes it
 * all down in reverse on shutdown.
 */
export default class TramitaProvider {
  private platform?: Platform
  private maintenanceTimer?: NodeJS.Timeout
  private shutdownLimit?: NodeJS.Timeout
  private services?: PluginServiceFactory
  private logger?: { info(msg: string): void; warn(msg: string): void }

  constructor(protected app: ApplicationService) {}

  /** Before anything runs a transaction: a failed COMMIT must fail its transaction (lib/checked_commit.ts). */
  async boot() {
    await checkCommits()
  }

  /** A plugin booted and enabled now (a failed one has no endpoint, schedule or capability). */
  private live = (id: string): boolean => this.platform?.plugins.status().some((p) => p.id === id && p.enabled) ?? false

  async start() {
    const logger = await this.app.container.make('logger')
    this.logger = logger
    if (process.env.TRAMITA_AUTO_MIGRATE) await this.prepareNewDatabase()
    if (this.app.getEnvironment() === 'web') await this.checkListenAddress()
    const redisUrl = env.get('REDIS_URL')
    const queue = await createQueue({ redisUrl, prefix: env.get('QUEUE_PREFIX', 'tramita'), logger })
    connectRateLimitStore()
    const appUrl = publicUrl()
    // The address the per-address limits count, read as the HTTP side reads it (config/app.ts).
    const trusted = this.app.config.get<unknown>('app.http.trustProxy')
    const trustProxy = typeof trusted === 'function' ? (trusted as (addr: string, i: number) => boolean) : () => false
    const sockets = new SocketHub({
      redisUrl,
      channel: `${env.get('QUEUE_PREFIX', 'tramita')}:ws`,
      logger,
      allowedOrigins: [appUrl, ...(env.get('ALLOWED_ORIGINS') ?? '').split(',').filter(Boolean)],
      authenticate: async (token) => (await findSession(token))?.userId ?? null,
      // Public-link visitors (no session) wait for fileReady on an anonymous socket.
      anonymous: anonymousSocketTerms(),
      clientIp: (req) => proxyAddr(req, trustProxy),
    })
    const definitions = await loadDefinitions()
    const live = this.live
    // Plugins' programs (device agents): a token header, 60 attempts a minute per address on every node.
    const attempts = rateLimit({ requests: PROGRAM_CONNECTS_PER_MINUTE, duration: '1 min' })
    const peers = new PeerHub({
      redisUrl,
      channel: `${env.get('QUEUE_PREFIX', 'tramita')}:peers`,
      logger,
      live,
      admitAddress: async (ip) => (await attempts.increment(`ws_peer:${ip}`)).consumed <= PROGRAM_CONNECTS_PER_MINUTE,
      clientIp: (req) => proxyAddr(req, trustProxy),
    })
    const services = await PluginServiceFactory.create({
      appUrl,
      queue: () => queue,
      sockets: () => sockets,
      peers: () => peers,
      live,
      pluginDir,
      pluginIds: definitions.map((d) => d.id),
    })
    this.services = services
    const plugins = new PluginHost(definitions, {
      logger,
      services,
      mountRoutes: (router, id) => mountDeclaredRoutes(router, services.routes.of(id), () => services.storageOf(id)),
      registerJob: (job) => queue.register(job),
      enqueue: (name, payload, opts) => queue.enqueue(name, payload, opts),
      publish: (to, message) => sockets.publish(to, message),
      config: { APP_URL: appUrl, TRAMITA_DATA_DIR: env.get('TRAMITA_DATA_DIR') },
    })
    queue.register(pruneSessionsJob)
    queue.register(pruneUploadsJob)
    queue.register(pruneJobEffectsJob)
    queue.register(recoveryMailJob)
    queue.register(securityNoticeJob)
    queue.register(taskNoticeJob)
    queue.register(pluginMailJob)
    this.platform = { queue, sockets, peers, plugins, outbox: new OutboxRelay(queue, logger), pluginServices: services }
    setPlatform(this.platform)
    await plugins.register()
    await plugins.boot()
  }

  /** This machine only unless HOST says otherwise; never beyond it with the README's demo password. */
  private async checkListenAddress() {
    const { DEFAULT_HOST, assertNoExposedDemo } = await import('#services/demo_exposure')
    process.env.HOST ||= DEFAULT_HOST
    await assertNoExposedDemo(process.env.HOST)
  }

  /**
   * `tramita serve --migrate`: a new database gets its tables; an existing one is left as it is (its
   * pending migrations named). With --seed-demo, demo data goes into a database that has no users yet,
   * and the log says why when it does not.
   */
  private async prepareNewDatabase() {
    const { databaseIsNew, pendingMigrations, runMigrations } = await import('#services/migrations')
    const seeds = await import('#services/seed_service')
    const { ensureDatabase } = await import('#lib/ensure_database')
    const demo = process.env.TRAMITA_AUTO_MIGRATE === 'demo'
    await ensureDatabase()
    if (await databaseIsNew()) {
      const { ran } = await runMigrations(this.app)
      this.logger?.info(`new database: ran ${ran.length} migrations`)
      await seeds.seedBase()
    } else {
      const pending = await pendingMigrations(this.app)
      if (pending.length > 0) {
        this.logger?.warn(
          `the database exists and has ${pending.length} pending migration(s), which --migrate runs only on a new database: run \`tramita migrate\``
        )
        if (demo) this.logger?.warn('demo data not loaded: the database is not up to date')
        return
      }
    }
    if (!demo) return
    const result = await seeds.seedDemo()
    if (!result.created) {
      this.logger?.warn(`demo data not loaded: ${result.reason}`)
      return
    }
    this.logger?.info(`demo data loaded (users ${result.users.join(', ')})`)
    // Where a newcomer starts: the work list, and the demo process's own links.
    for (const key of result.forms) {
      this.logger?.info(`demo process: /process (start it there), /forms/new?data=${key}, /consult?data=${key}`)
    }
  }

  async ready() {
    if (!this.platform || this.app.getEnvironment() !== 'web') return
    const platform = this.platform
    // Registered after the framework's own hook that closes the HTTP server, so it runs before it
    // (terminating hooks run in reverse): that close waits for every upgraded socket, and a node with
    // one browser connected would otherwise never exit on SIGTERM.
    this.app.terminating(async () => {
      this.startShutdownLimit()
      await platform.peers.close()
      platform.sockets.disconnectClients()
    })
    const server = await this.app.container.make('server')
    const nodeServer = server.getNodeServer()
    // Attached at once, then connected to Redis: the server already answers, and an upgrade to /ws
    // no hub listens for gets an ordinary 200 (seen by fanout.spec, connecting while start() waited
    // up to 3 s for its subscription). Until it is made, messages from other nodes do not arrive.
    // Neither waits for Redis: while it is away the node serves, and jobs wait in the outbox.
    if (nodeServer) this.platform.sockets.attach(nodeServer)
    if (this.platform.peers.declared > 0 && nodeServer) this.platform.peers.attach(nodeServer)
    await this.platform.sockets.start()
    if (this.platform.peers.declared > 0) await this.platform.peers.start()
    // Embedded mode: no Redis, so this process is also the worker.
    const { queue, outbox } = this.platform
    if (queue.driver === 'memory') await queue.startWorker()
    outbox.start()
    // Hourly maintenance, enqueued by every node; the per-hour job id lets one run per hour.
    // Plugins' scheduled jobs the same way, the period as job id (jobs.every).
    const schedules = this.services?.schedules ?? []
    const live = this.live
    const enqueueMaintenance = () =>
      Promise.all([
        ...[pruneSessionsJob, pruneUploadsJob, pruneJobEffectsJob].map((job) =>
          queue
            .enqueue(job.name, {}, periodEnqueueOptions(job.name, 'hourly'))
            .catch((error: Error) => this.logger?.warn(`maintenance not queued: ${error.message}`))
        ),
        enqueueSchedules(queue, schedules, live, (m) => this.logger?.warn(m)),
        // Node-local: the upload folders a killed process of this node left behind.
        sweepAbandonedRequests().catch((error: Error) => this.logger?.warn(`upload folders: ${error.message}`)),
      ])
    void enqueueMaintenance()
    this.maintenanceTimer = setInterval(enqueueMaintenance, 10 * 60_000).unref()
  }

  /**
   * A served node ends within SHUTDOWN_LIMIT_MS of the start of its termination whatever is still
   * pending (with Redis away, a straggler could reopen the database pool and keep the process alive).
   */
  private startShutdownLimit() {
    if (this.shutdownLimit || this.app.getEnvironment() !== 'web') return
    this.shutdownLimit = setTimeout(() => {
      this.logger?.warn(`shutdown: still busy after ${SHUTDOWN_LIMIT_MS} ms; exiting`)
      process.exit(process.exitCode ?? 0)
    }, SHUTDOWN_LIMIT_MS).unref()
  }

  async shutdown() {
    this.startShutdownLimit()
    clearInterval(this.maintenanceTimer)
    if (!this.platform) return
    // Programs' connections first, so their plugins hear of each close before they stop.
    await this.platform.peers.close()
    await this.platform.plugins.shutdown()
    await this.platform.outbox.stop()
    await this.platform.sockets.close()
    await this.platform.queue.stopWorker()
    await this.platform.queue.close()
    await closeScripts()
    setPlatform(undefined)
  }
}
