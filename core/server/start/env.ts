/*
 * Environment variables, validated once at start. A bad value stops the process with a message that
 * names the variable and what it expects. Every variable has an embedded default so `npm start`
 * works on a fresh machine; production sets DB_CONNECTION=mysql, REDIS_URL, DRIVE_DISK=s3, SMTP_*.
 */
import { Env } from '@adonisjs/core/env'
import { ensureAppKey } from '#lib/app_key'
import { megabytesVariable, millisecondsVariable, smtpPortVariable, urlVariable } from '#lib/env_rules'

ensureAppKey()

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum.optional(['development', 'production', 'test'] as const),
  PORT: Env.schema.number.optional(),
  HOST: Env.schema.string.optional({ format: 'host' }),
  APP_KEY: Env.schema.secret(),
  APP_URL: urlVariable(['http:', 'https:']),
  LOG_LEVEL: Env.schema.enum.optional(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),

  TRAMITA_DATA_DIR: Env.schema.string.optional(),
  TRAMITA_PLUGINS: Env.schema.string.optional(),
  TRAMITA_DEMO_PASSWORD: Env.schema.string.optional(),
  ALLOWED_ORIGINS: Env.schema.string.optional(),

  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'mysql'] as const),
  DB_HOST: Env.schema.string.optional({ format: 'host' }),
  DB_PORT: Env.schema.number.optional(),
  DB_USER: Env.schema.string.optional(),
  DB_PASSWORD: Env.schema.string.optional(),
  DB_DATABASE: Env.schema.string.optional(),
  // How long a statement, or a connection from the pool, may wait for MariaDB (lib/db_timeouts.ts).
  DB_TIMEOUT_MS: millisecondsVariable,

  REDIS_URL: urlVariable(['redis:', 'rediss:']),
  QUEUE_PREFIX: Env.schema.string.optional(),

  DRIVE_DISK: Env.schema.enum.optional(['fs', 's3'] as const),
  S3_BUCKET: Env.schema.string.optional(),
  S3_REGION: Env.schema.string.optional(),
  S3_ENDPOINT: urlVariable(['http:', 'https:']),
  S3_ACCESS_KEY_ID: Env.schema.string.optional(),
  S3_SECRET_ACCESS_KEY: Env.schema.string.optional(),
  // How long an S3 request's socket may stay silent (lib/storage_timeouts.ts).
  S3_TIMEOUT_MS: millisecondsVariable,
  // The largest file the form runtime accepts, in MB (20 by default).
  UPLOAD_MAX_MB: megabytesVariable,
  // clamd for upload scans, `host` or `host:port` (3310); without it clamscan scans if it has signatures.
  CLAMAV_HOST: Env.schema.string.optional(),
  // dev_word_to_pdf: calls per minute per caller (10) and the template fill's time limit (20,000 ms).
  WORD_TO_PDF_PER_MINUTE: Env.schema.number.optional(),
  WORD_FILL_TIMEOUT_MS: Env.schema.number.optional(),
  // Calls per minute per caller: create_doc (30), cardim_preview and cardim_full each (30), uploads (120).
  CREATE_DOC_PER_MINUTE: Env.schema.number.optional(),
  ID_CARD_PER_MINUTE: Env.schema.number.optional(),
  UPLOADS_PER_MINUTE: Env.schema.number.optional(),
  // Calls per minute per user: ejecutar_exe / script calls (20) and push_notify (30).
  SCRIPT_CALLS_PER_MINUTE: Env.schema.number.optional(),
  PUSH_NOTIFY_PER_MINUTE: Env.schema.number.optional(),

  // Sign-in (issue 4). The pepper keeps stolen password hashes useless without the server's secret.
  PASSWORD_PEPPER: Env.schema.string.optional(),
  SESSION_IDLE_MINUTES: Env.schema.number.optional(),
  AUTH_RATE_PER_MINUTE: Env.schema.number.optional(),
  // Proxies whose X-Forwarded-For is believed (proxy-addr list: 'loopback', CIDRs); none by default.
  TRUSTED_PROXIES: Env.schema.string.optional(),
  // The principal host whose /validate_login receives the token after sign-in (spec 000 §2), if any.
  PRINCIPAL_HOST: urlVariable(['http:', 'https:']),
  LDAP_URL: urlVariable(['ldap:', 'ldaps:']),
  // The DN a directory user binds as, with {user} for the user name, e.g. uid={user},ou=people,dc=x
  LDAP_USER_DN: Env.schema.string.optional(),

  SMTP_HOST: Env.schema.string.optional({ format: 'host' }),
  SMTP_PORT: smtpPortVariable,
  SMTP_SECURITY: Env.schema.enum.optional(['ssl', 'tls', 'none'] as const),
  SMTP_USER: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  SMTP_TLS_INSECURE: Env.schema.boolean.optional(),
  MAIL_FROM: Env.schema.string.optional({ format: 'email' }),
  MAIL_FROM_NAME: Env.schema.string.optional(),
})
