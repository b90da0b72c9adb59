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
      transport: {
        targets: targets()
          .pushIf(!app.inProduction, targets.pretty())
          .pushIf(app.inProduction, targets.file({ destination: 1 }))
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
