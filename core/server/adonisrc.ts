import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  commands: [() => import('@adonisjs/lucid/commands')],
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/drive/drive_provider'),
    () => import('#providers/redis_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/mail/mail_provider'),
    () => import('#providers/tramita_provider'),
  ],
  preloads: [() => import('#start/routes'), () => import('#start/kernel')],
  tests: {
    suites: [
      {
        name: 'unit',
        files: [
          'tests/unit/**/*.spec.ts',
          '../i18n/tests/**/*.spec.ts',
          '../contract/tests/**/*.spec.ts',
          '../web/tests/**/*.spec.ts',
          '../../runtime-web/tests/**/*.spec.ts',
          '../../designer/tests/**/*.spec.ts',
          '../../plugins/*/tests/unit/**/*.spec.ts',
        ],
        timeout: 10_000,
      },
      {
        name: 'functional',
        files: [
          'tests/functional/**/*.spec.ts',
          '../../plugins/*/tests/*.spec.ts',
          '../../plugins/*/tests/functional/**/*.spec.ts',
        ],
        timeout: 30_000,
      },
      { name: 'sandbox', files: ['../sandbox/tests/**/*.spec.ts'], timeout: 60_000 },
      { name: 'queue', files: ['tests/queue/**/*.spec.ts'], timeout: 60_000 },
      { name: 'sockets', files: ['tests/sockets/**/*.spec.ts'], timeout: 60_000 },
      // The devices agent's drivers against real programs: ippeveprinter, SANE's test backend, Avahi.
      { name: 'devices', files: ['../../plugins/devices/tests/drivers/**/*.spec.ts'], timeout: 60_000 },
      { name: 'cli', files: ['tests/cli/**/*.spec.ts', '../../plugins/*/tests/cli/**/*.spec.ts'], timeout: 180_000 },
      {
        name: 'e2e',
        files: ['../../tests/e2e/**/*.spec.ts', '../../plugins/*/tests/e2e/**/*.spec.ts'],
        timeout: 120_000,
      },
    ],
    forceExit: true,
  },
})
