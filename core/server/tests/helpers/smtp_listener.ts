import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server inside the test process (smtp-server). bin/test.ts starts it before the app
 * boots and points SMTP_HOST/SMTP_PORT at it, so the app's mail goes over a real SMTP conversation.
 */
export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
  /** The text body, decoded from quoted-printable. */
  text: string
  subject: string
}

export const inbox: ReceivedMail[] = []
const waiters = new Set<() => void>()

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3)
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function textPart(raw: string): string {
  const match =
    /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*?Content-Transfer-Encoding: ([^\r\n]+)\r?\n\r?\n([\s\S]*?)\r?\n--/i.exec(
      raw
    )
  if (!match) return raw
  const [, encoding, body] = match
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(body)
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  return body
}

function decodeSubject(raw: string): string {
  const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? ''
  return line
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' '))
    )
}

export async function startSmtpListener(): Promise<number> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: textPart(raw),
          subject: decodeSubject(raw),
        })
        for (const wake of waiters) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  server.server.unref()
  return port
}

/** Waits for a mail to `to` that satisfies `match`, up to `ms` (fails the test after that). */
export async function waitForMail(to: string, match: (mail: ReceivedMail) => boolean = () => true, ms = 15_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const found = inbox.find((m) => sentTo(m, to) && match(m))
    if (found) return found
    if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${ms} ms (inbox: ${inbox.length})`)
    await new Promise<void>((resolve) => {
      const wake = () => {
        waiters.delete(wake)
        resolve()
      }
      waiters.add(wake)
      setTimeout(wake, 200)
    })
  }
}

/** Mailbox names compare without case (the SMTP envelope may change it). */
function sentTo(mail: ReceivedMail, to: string): boolean {
  return mail.to.some((address) => address.toLowerCase() === to.toLowerCase())
}

export function mailsTo(to: string): ReceivedMail[] {
  return inbox.filter((m) => sentTo(m, to))
}
