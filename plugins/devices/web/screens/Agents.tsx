/**
 * The agents screen (spec 001 §2; issue 21), /devices/agents, for superusers: every agent with its status
 * (the spec's ACTIVE, INACTIVE, WAITING, CANCELLED, NO LICENSE), its machines, when it was last seen, its
 * computer and the start of its token. A new agent's token is shown once, with the command that starts
 * it on the computer with the devices; an agent is renamed, or revoked after a confirmation (it stops at
 * once and its unfinished jobs fail). Every rule is the server's; a refusal is shown where it was asked.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { ConfirmDialog, DialogActions, useAttempt } from '@tramita/web/dialog-form'
import { useLoaded } from '@tramita/web/loading'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import type { AgentRow } from '../../shared/devices.js'
import { agents as listAgents, createAgent, renameAgent, revokeAgent } from '../api.js'
import { Cell, LIVE_MS, ListState, StatusBadge, When } from './parts.js'
import '@tramita/web/screens.css'
import './devices.css'

/** The dialog open over the list, if any. */
type Open =
  | null
  | { kind: 'new' }
  | { kind: 'made'; agent: AgentRow; token: string }
  | { kind: 'rename'; agent: AgentRow }
  | { kind: 'revoke'; agent: AgentRow }

export default function Agents() {
  const { t } = useTranslation()
  const { value: all, failure, reload } = useLoaded(listAgents, { refreshMs: LIVE_MS })
  const [open, setOpen] = useState<Open>(null)
  const close = () => setOpen(null)

  /** A change went through: the dialog closes, the list is read again. */
  function done(message: string) {
    setOpen(null)
    toasts.success(message)
    reload()
  }

  return (
    <Page title={t('devices.screens.agents')} testId="dev-agents">
      <p className="muted dev-lead">{t('devices.screens.agents_lead')}</p>
      <div className="screen-toolbar">
        <button type="button" className="button" onClick={() => setOpen({ kind: 'new' })}>
          {t('devices.screens.new_agent')}
        </button>
      </div>
      <section
        aria-label={t('devices.screens.agents')}
        aria-busy={all === null && failure === null}
        data-testid="dev-agent-list"
      >
        <ListState loading={all === null} failure={failure} onRetry={reload} />
        {all?.length === 0 && <p className="muted">{t('devices.screens.no_agents')}</p>}
        {all && all.length > 0 && (
          <table className="data-table dev-table">
            <thead>
              <tr>
                <th scope="col">{t('devices.screens.name')}</th>
                <th scope="col">{t('devices.screens.status')}</th>
                <th scope="col">{t('devices.screens.machine_count')}</th>
                <th scope="col">{t('devices.screens.last_seen')}</th>
                <th scope="col">{t('devices.screens.hostname')}</th>
                <th scope="col">{t('devices.screens.token')}</th>
                <th scope="col">{t('devices.screens.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {all.map((agent) => (
                <tr key={agent.id} data-testid="dev-agent" data-name={agent.name}>
                  <th scope="row" className="dev-table__name">
                    {agent.name}
                  </th>
                  <Cell label={t('devices.screens.status')}>
                    <StatusBadge status={agent.status} />
                  </Cell>
                  <Cell label={t('devices.screens.machine_count')}>{agent.machines}</Cell>
                  <Cell label={t('devices.screens.last_seen')}>
                    <When iso={agent.last_seen_at} never={t('devices.screens.never')} />
                  </Cell>
                  <Cell label={t('devices.screens.hostname')} className="dev-table__wrap">
                    {agent.hostname ?? <span className="muted">—</span>}
                    {agent.version && <span className="muted"> · {agent.version}</span>}
                  </Cell>
                  <Cell label={t('devices.screens.token')}>
                    {agent.token_hint ? (
                      <code className="dev-hint">{`${agent.token_hint}…`}</code>
                    ) : (
                      <span className="muted">{t('devices.screens.token_revoked')}</span>
                    )}
                  </Cell>
                  <td className="dev-table__actions">
                    <button type="button" className="link-button" onClick={() => setOpen({ kind: 'rename', agent })}>
                      {t('devices.screens.rename')}
                      <span className="visually-hidden"> {agent.name}</span>
                    </button>
                    {agent.status !== 'CANCELLED' && (
                      <button
                        type="button"
                        className="link-button link-button--danger"
                        onClick={() => setOpen({ kind: 'revoke', agent })}
                      >
                        {t('devices.screens.revoke')}
                        <span className="visually-hidden"> {agent.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {open?.kind === 'new' && (
        <NameDialog
          title={t('devices.screens.new_agent')}
          submit={t('devices.screens.create')}
          testId="dev-new-agent-dialog"
          onClose={close}
          onSubmit={async (name) => {
            const made = await createAgent(name)
            // The token is in this answer only: the dialog that shows it replaces the form.
            setOpen({ kind: 'made', agent: made.agent, token: made.token })
            reload()
          }}
        />
      )}
      {open?.kind === 'made' && <TokenDialog agent={open.agent} token={open.token} onClose={close} />}
      {open?.kind === 'rename' && (
        <NameDialog
          title={t('devices.screens.rename_title', { name: open.agent.name })}
          initial={open.agent.name}
          submit={t('devices.screens.save')}
          testId="dev-rename-agent-dialog"
          onClose={close}
          onSubmit={async (name) => {
            await renameAgent(open.agent.id, name)
            done(t('devices.screens.agent_renamed'))
          }}
        />
      )}
      {open?.kind === 'revoke' && (
        <ConfirmDialog
          title={t('devices.screens.revoke_title', { name: open.agent.name })}
          question={t('devices.screens.revoke_confirm')}
          action={t('devices.screens.revoke')}
          testId="dev-revoke-agent-dialog"
          onClose={close}
          onConfirm={async () => {
            await revokeAgent(open.agent.id)
            done(t('devices.screens.agent_revoked', { name: open.agent.name }))
          }}
        />
      )}
    </Page>
  )
}

/** An agent's name, new or changed; the server's refusal (a name it does not accept) is shown here. */
function NameDialog({
  title,
  initial = '',
  submit,
  testId,
  onClose,
  onSubmit,
}: {
  title: string
  initial?: string
  submit: string
  testId: string
  onClose(): void
  onSubmit(name: string): Promise<void>
}) {
  const { t } = useTranslation()
  const [name, setName] = useState(initial)
  const { failure, busy, attempt } = useAttempt()
  return (
    <Dialog className="dev-dialog" title={title} onClose={onClose} testId={testId}>
      <form
        className="dev-form"
        onSubmit={(event) => {
          event.preventDefault()
          void attempt(() => onSubmit(name.trim()))
        }}
      >
        <label>
          {t('devices.screens.agent_name')}
          <input value={name} maxLength={150} required onChange={(event) => setName(event.target.value)} />
        </label>
        <p className="muted">{t('devices.screens.agent_name_help')}</p>
        <DialogActions submit={submit} busy={busy} failure={failure} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** How the agent is started on its computer; a token that starts with a dash is given with `=`. */
function agentCommand(origin: string, token: string): string {
  return `tramita agent --server ${origin} --token${token.startsWith('-') ? '=' : ' '}${token}`
}

/** Copies a text: the clipboard when the browser allows it, else the selected field's text. */
async function copy(text: string, field: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    field?.select()
    return document.execCommand('copy')
  }
}

/** The new agent's token, shown this once, and the command that starts the agent with it. */
function TokenDialog({ agent, token, onClose }: { agent: AgentRow; token: string; onClose(): void }) {
  const { t } = useTranslation()
  const command = agentCommand(window.location.origin, token)
  const [copied, setCopied] = useState<string | null>(null)

  async function copyFrom(id: string, text: string, what: 'token' | 'command') {
    const field = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null
    setCopied(
      (await copy(text, field))
        ? t(what === 'token' ? 'devices.screens.token_copied' : 'devices.screens.command_copied')
        : t('devices.screens.copy_failed')
    )
  }

  return (
    <Dialog
      className="dev-dialog"
      title={t('devices.screens.agent_made_title', { name: agent.name })}
      onClose={onClose}
      testId="dev-token-dialog"
    >
      <div className="dev-form">
        <p className="notice dev-warning">{t('devices.screens.token_once')}</p>
        <label htmlFor="dev-token">{t('devices.screens.token')}</label>
        <div className="dev-copy">
          <input
            id="dev-token"
            className="dev-mono"
            readOnly
            value={token}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button
            type="button"
            className="button button--quiet"
            onClick={() => void copyFrom('dev-token', token, 'token')}
          >
            {t('devices.screens.copy_token')}
          </button>
        </div>
        <label htmlFor="dev-command">{t('devices.screens.command')}</label>
        <p className="muted" id="dev-command-help">
          {t('devices.screens.command_help')}
        </p>
        <div className="dev-copy">
          <textarea
            id="dev-command"
            className="dev-mono"
            readOnly
            rows={3}
            value={command}
            aria-describedby="dev-command-help"
            onFocus={(event) => event.currentTarget.select()}
          />
          <button
            type="button"
            className="button button--quiet"
            onClick={() => void copyFrom('dev-command', command, 'command')}
          >
            {t('devices.screens.copy_command')}
          </button>
        </div>
        <p className="muted">{t('devices.screens.token_env')}</p>
        <p role="status" className="dev-copied">
          {copied}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('devices.screens.token_done')}
          </button>
        </div>
      </div>
    </Dialog>
  )
}
