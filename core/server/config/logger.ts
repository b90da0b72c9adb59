import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, targets } from '@adonisjs/core/logger'

/** pino: JSON lines in production, pretty lines in development, quiet in tests unless LOG_LEVEL says. */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'tramita',
      level: env.get('LOG_LEVEL', app.inTest ? 'warn' : 'info'),
      redact: { paths: ['password', '*.password', 'headers.token', 'token'], censor: '[redacted]' },
      // Pretty lines through pino-pretty outside production and tests only: a transport is a worker
      // thread that loads its own modules (about 0.2 s of CPU at every start, which each CLI command
      // pays). Production and tests write JSON lines to stdout from the process itself.
      transport: app.inProduction || app.inTest ? undefined : { targets: targets().push(targets.pretty()).toArray() },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
