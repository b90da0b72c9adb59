import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { createTransport } from 'nodemailer'
import { MailResponse } from '@adonisjs/mail'
import type { MailTransportContract, NodeMailerMessage } from '@adonisjs/mail/types'
import { dataSubdir } from '#lib/paths'

/**
 * The embedded default when no SMTP server is configured: each message is written as an .eml file
 * to `<data dir>/outbox`, where an operator (or a test) can open it.
 */
export class OutboxTransport implements MailTransportContract {
  #composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' })

  async send(message: NodeMailerMessage) {
    const info = await this.#composer.sendMail(message)
    const file = join(dataSubdir('outbox'), `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`)
    await writeFile(file, info.message as Buffer)
    return new MailResponse(info.messageId, info.envelope as never, { file })
  }
}
