import mail from '@adonisjs/mail/services/main'
import { translate, type Language } from '@tramita/i18n'
import type User from '#models/user'

/**
 * The e-mails sign-in sends, in the reader's language (es, en, zh): the recovery link and the
 * security notices. Texts live in core/i18n under `mail.*`.
 */
export type SecurityNotice = 'password_changed' | 'two_fa_lockout' | 'two_fa_reset' | 'blocked'

function greeting(lang: Language, user: User) {
  return translate(lang, 'mail.greeting', { name: `${user.firstName} ${user.lastName}`.trim() })
}

export async function sendRecoveryMail(user: User, link: string, lang: Language, minutes: number): Promise<void> {
  const lines = [
    greeting(lang, user),
    translate(lang, 'mail.recovery.body', { minutes }),
    link,
    translate(lang, 'mail.recovery.ignore'),
  ]
  await mail.send((message) => {
    message
      .to(user.email!)
      .subject(translate(lang, 'mail.recovery.subject'))
      .text(lines.join('\n\n'))
      .html(
        lines
          .map((line) =>
            line === link ? `<p><a href="${encodeURI(link)}">${escape(link)}</a></p>` : `<p>${escape(line)}</p>`
          )
          .join('')
      )
  })
}

export async function sendSecurityNotice(user: User, notice: SecurityNotice, lang: Language): Promise<void> {
  if (!user.email) return
  const lines = [greeting(lang, user), translate(lang, `mail.notice.${notice}`), translate(lang, 'mail.notice.not_you')]
  await mail.send((message) => {
    message
      .to(user.email!)
      .subject(translate(lang, 'mail.notice.subject'))
      .text(lines.join('\n\n'))
      .html(lines.map((line) => `<p>${escape(line)}</p>`).join(''))
  })
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
