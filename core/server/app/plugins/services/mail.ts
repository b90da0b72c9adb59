import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import mail from '@adonisjs/mail/services/main'
import { isLanguage, translate, type Language } from '@tramita/i18n'
import type { PluginMail } from '@tramita/plugin-api'
import { effectDone, performClaimed, recordPerformed } from '#services/job_effects'
import { queueJob } from '#services/job_outbox'
import { isText, pluginText } from './texts.js'

export const PLUGIN_MAIL_JOB = 'core:plugin-mail'

const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/

interface MailPayload {
  plugin: string
  to: { userId: number } | { email: string; language: Language }
  subject: string
  text: string
  params: Record<string, string | number>
  link: string | null
  /** The job_effects key: a job run again after the mail went out sends nothing. */
  effect: string
}

/** A key of the plugin's texts, written with or without its id. */
function ownKey(pluginId: string, key: string): string {
  return key.startsWith(`${pluginId}.`) ? key : `${pluginId}.${key}`
}

/**
 * Queues a mail through the job outbox (the caller never waits on SMTP or Redis). The texts are
 * checked now, so a mistyped key fails in the plugin's request rather than in a job.
 */
export function pluginMail(pluginId: string): PluginMail {
  return {
    async send(to, message) {
      for (const key of [message.subject, message.text]) {
        if (!isText(ownKey(pluginId, key))) throw new Error(`plugin "${pluginId}": no text "${key}" for a mail`)
      }
      if ('email' in to && (!EMAIL.test(to.email) || to.email.length > 254 || !isLanguage(to.language))) {
        throw new Error(`plugin "${pluginId}": invalid mail recipient`)
      }
      if ('userId' in to && !Number.isSafeInteger(to.userId)) throw new Error(`plugin "${pluginId}": invalid user id`)
      if (message.link !== undefined && !/^https?:\/\//.test(message.link)) {
        throw new Error(`plugin "${pluginId}": a mail link is an absolute http(s) address (ctx.http.url)`)
      }
      const effect = `plugin-mail:${randomUUID()}`
      const payload: MailPayload = {
        plugin: pluginId,
        to: 'email' in to ? { email: to.email, language: to.language } : { userId: to.userId },
        subject: ownKey(pluginId, message.subject),
        text: ownKey(pluginId, message.text),
        params: message.params ?? {},
        link: message.link ?? null,
        effect,
      }
      await queueJob({ name: PLUGIN_MAIL_JOB, payload, key: effect })
    },
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The recipient's address, name and language; null when there is nobody to mail (a user gone or without e-mail). */
async function recipientOf(to: MailPayload['to']) {
  if ('email' in to) return { email: to.email, name: null, language: to.language }
  const user = await db.from('users').where('id', to.userId).where('enabled', true).first()
  if (!user?.email) return null
  // Users have no language of their own yet: the product's default.
  return { email: String(user.email), name: `${user.first_name} ${user.last_name}`.trim(), language: 'es' as Language }
}

/** The job that sends a plugin's mail, in the recipient's language, once. */
export const pluginMailJob = {
  name: PLUGIN_MAIL_JOB,
  attempts: 3,
  backoffMs: 30_000,
  async handle(payload: MailPayload): Promise<{ sent: boolean }> {
    if (await effectDone(payload.effect)) return { sent: false }
    const to = await recipientOf(payload.to)
    if (!to) return { sent: false }
    const lang = to.language
    const body = pluginText(lang, payload.text, payload.params)
    const lines = [...(to.name ? [translate(lang, 'mail.greeting', { name: to.name })] : []), body]
    const link = payload.link
    const sent = await performClaimed(payload.effect, async () => {
      await mail.send((message) => {
        message
          .to(to.email)
          .subject(pluginText(lang, payload.subject, payload.params))
          .text([...lines, ...(link ? [link] : [])].join('\n\n'))
          .html(
            lines.map((line) => `<p>${escape(line)}</p>`).join('') +
              (link ? `<p><a href="${escape(encodeURI(link))}">${escape(link)}</a></p>` : '')
          )
      })
    })
    if (!sent) return { sent: false }
    // The mail is gone: failing the job now would have its retry mail again.
    await recordPerformed(payload.effect).catch((error) =>
      logger.warn({ err: error, effect: payload.effect }, 'the mail was sent but its record was not written')
    )
    return { sent: true }
  },
}
