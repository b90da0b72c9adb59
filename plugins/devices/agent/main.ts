import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { Agent, AgentStopped } from './agent.js'

const USAGE = `Usage: tramita agent --server URL [--token T | --token-file F] [options]

Connects this computer's printers and scanners to a Tramita server. The token is made by an
administrator on the agents screen; TRAMITA_AGENT_TOKEN may hold it instead (a command line is
visible to other users of the computer).

  --server URL        the Tramita server (https://tramita.example.org)
  --token T           the agent's token
  --token-file F      a file holding the token
  --printer URI       an IPP printer (ipp://host:631/ipp/print), besides those found; repeatable
  --scanner DEVICE    a SANE device (as scanimage -L names it), besides those found; repeatable
  --no-discover       only the printers and scanners given, no mDNS or SANE discovery
  --sign-command CMD  a signing pad's program, run as CMD TEMPLATE OUTPUT for each signature asked
                      (it writes the signed PDF to OUTPUT); TRAMITA_AGENT_SIGN_COMMAND may hold it
  --files-root DIR    synchronized folders may only be bound under DIR; repeatable (none: any
                      directory this user may read and write)
  --help              this text`

/** `tramita agent ...`: runs until stopped (SIGINT, SIGTERM) or refused for good by the server. */
export async function runAgent(argv: string[]): Promise<number> {
  let args
  try {
    args = parseArgs({
      args: argv,
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        printer: { type: 'string', multiple: true },
        scanner: { type: 'string', multiple: true },
        'no-discover': { type: 'boolean' },
        'sign-command': { type: 'string' },
        'files-root': { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (args.help) {
    console.log(USAGE)
    return 0
  }
  const token =
    args.token ??
    (args['token-file'] ? (await readFile(args['token-file'], 'utf8')).trim() : process.env.TRAMITA_AGENT_TOKEN)
  if (!args.server || !/^https?:\/\/[^\s]+$/.test(args.server) || !token) {
    console.error(`--server (an http or https address) and a token are required\n\n${USAGE}`)
    return 2
  }
  const agent = new Agent({
    server: args.server,
    token,
    version: '0.2.0',
    printers: args.printer ?? [],
    scanners: args.scanner ?? [],
    discover: !args['no-discover'],
    signCommand: args['sign-command'] || process.env.TRAMITA_AGENT_SIGN_COMMAND || undefined,
    filesRoots: args['files-root'] ?? [],
  })
  const stop = () => void agent.stop()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  await agent.start()
  try {
    await agent.done
    return 0
  } catch (error) {
    if (error instanceof AgentStopped) return 3
    throw error
  }
}
