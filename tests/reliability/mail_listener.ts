/**
 * A real SMTP server in the test process (smtp-server, as the functional suites' listener) for the
 * cluster's processes: it keeps every mail received in full, and can hold its answer to DATA so that a
 * sender is caught inside a send (job_fault_checks.ts kills one there).
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  session: string
  to: string[]
  /** The text part, decoded. */
  text: string
  /** The listener answered 250 (the sender knows the mail was taken). */
  answered: boolean
}

export interface MailListener {
  readonly port: number
  /** What the cluster's processes need to send here (the app reads SMTP_HOST, SMTP_PORT, SMTP_SECURITY). */
  readonly env: Record<string, string>
  /** Every mail received in full (its DATA ended), answered or not: what an MTA may deliver. */
  readonly mails: ReceivedMail[]
  /** From now on the answer to the DATA of each mail that matches waits for release(). */
  hold(match: (mail: ReceivedMail) => boolean): void
  /** Held mails whose sender still waits, and those whose sender went away unanswered. */
  held(): { waiting: number; dropped: number }
  /** Connections open now (a bound on the sends a killed sender had started). */
  open(): number
  /** Answers every held mail whose sender is still there, and holds no more. */
  release(): void
  close(): Promise<void>
}

function quotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

/** The text/plain part of a message (nodemailer: multipart/alternative, quoted-printable or base64). */
function textOf(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1]
  for (const part of boundary ? raw.split(`--${boundary}`) : [raw]) {
    const split = part.search(/\r?\n\r?\n/)
    if (split < 0) continue
    const head = part.slice(0, split)
    if (boundary && !/content-type:\s*text\/plain/i.test(head)) continue
    const body = part.slice(split).trim()
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase()
    if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    return encoding === 'quoted-printable' ? quotedPrintable(body) : body
  }
  return raw
}

/** A real SMTP server in this process (smtp-server, as the functional suites' listener), able to hold answers. */
export async function startMailListener(): Promise<MailListener> {
  const mails: ReceivedMail[] = []
  const waiting = new Map<ReceivedMail, () => void>()
  const opened = new Set<string>()
  const closed = new Set<string>()
  let holding: ((mail: ReceivedMail) => boolean) | null = null
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const text = textOf(Buffer.concat(chunks).toString('utf8'))
        const mail: ReceivedMail = {
          session: session.id,
          to: session.envelope.rcptTo.map((r) => r.address),
          text,
          answered: false,
        }
        mails.push(mail)
        const answer = () => {
          mail.answered = true
          callback()
        }
        if (holding?.(mail)) waiting.set(mail, answer)
        else answer()
      })
    },
    onConnect(session, callback) {
      opened.add(session.id)
      callback()
    },
    onClose(session) {
      closed.add(session.id)
    },
  })
  // A sender killed mid-conversation resets its connection: expected here, not a failure of the listener.
  server.on('error', () => undefined)
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_SECURITY: 'none' },
    mails,
    hold(match) {
      holding = match
    },
    held() {
      const gone = [...waiting.keys()].filter((mail) => closed.has(mail.session)).length
      return { waiting: waiting.size - gone, dropped: gone }
    },
    open: () => [...opened].filter((id) => !closed.has(id)).length,
    release() {
      holding = null
      for (const [mail, answer] of waiting) if (!closed.has(mail.session)) answer()
      waiting.clear()
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
