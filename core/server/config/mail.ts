import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'
import { OutboxTransport } from '#mail/outbox_transport'

/**
 * SMTP when SMTP_HOST is set (SMTP_SECURITY ssl → port 465, tls → 587, per spec 001 §9; env.ts
 * checks the pair), else the local outbox folder in the data dir.
 */
const security = env.get('SMTP_SECURITY', 'tls')
const smtpPort = env.get('SMTP_PORT') ?? (security === 'ssl' ? 465 : security === 'tls' ? 587 : 25)

const mailConfig = defineConfig({
  default: env.get('SMTP_HOST') ? 'smtp' : 'outbox',
  from: { address: env.get('MAIL_FROM', 'no-reply@tramita.local'), name: env.get('MAIL_FROM_NAME', 'Tramita') },
  mailers: {
    smtp: transports.smtp({
      host: env.get('SMTP_HOST', 'localhost'),
      port: smtpPort,
      secure: security === 'ssl',
      requireTLS: security === 'tls',
      auth: env.get('SMTP_USER')
        ? { type: 'login', user: env.get('SMTP_USER')!, pass: env.get('SMTP_PASSWORD', '') }
        : undefined,
      tls: env.get('SMTP_TLS_INSECURE') ? { rejectUnauthorized: false } : undefined,
      // Connections kept and reused, a few per process, rather than a connection and TLS handshake per mail.
      pool: true,
      maxConnections: 5,
      // A server that stops answering fails the send (the job retries) instead of holding a worker.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
    }),
    outbox: () => new OutboxTransport(),
  },
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
