import type { Command } from 'commander'
import { withApp } from '../app.js'
import { CliError } from '../output.js'

export function registerWorker(program: Command) {
  program
    .command('worker')
    .description('run queued jobs from Redis (REDIS_URL) until SIGTERM, then drain gracefully')
    .option('-c, --concurrency <n>', 'jobs run at once', '5')
    .action(async (opts: { concurrency: string }) => {
      if (!process.env.REDIS_URL) {
        throw new CliError('the worker needs REDIS_URL; without Redis, `tramita serve` runs jobs in-process')
      }
      const concurrency = Number(opts.concurrency)
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new CliError('--concurrency must be a positive integer')
      const { platform } = await import('@tramita/server/app/services/platform.ts')
      await withApp(async () => {
        const { queue } = platform()
        await queue.startWorker({ concurrency })
        // Workers also move staged jobs (job_outbox) to the queue, so jobs flow with no app node up.
        platform().outbox.start()
        console.log(`Worker started (${queue.names().length} job types, concurrency ${concurrency})`)
        await new Promise<void>((resolve) => {
          const stop = () => resolve()
          process.once('SIGTERM', stop)
          process.once('SIGINT', stop)
        })
        console.log('Draining: waiting for running jobs to finish…')
        await platform().outbox.stop()
        await queue.stopWorker()
        console.log('Worker stopped')
      })
    })
}
