/**
 * The library's new folder (spec 001 §2, §3): a name, and its type: normal, or synchronized with a path
 * on a device agent (the agents offered are those the person may bind; the server checks the path and
 * answers the spec's texts, shown here until the next try).
 */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { DialogActions, useAttempt } from '@tramita/web/dialog-form'
import type { SyncAgent } from '../../shared/sync.js'
import { makeFolder } from '../library/api.js'
import { makeSyncedFolder, syncAgents } from '../library/sync_api.js'
import './sync.css'

interface NewFolderDialogProps {
  parent: number | null
  onClose(): void
  onMade(): void
}

export function NewFolderDialog({ parent, onClose, onMade }: NewFolderDialogProps) {
  const { t } = useTranslation()
  const [name, setName] = useState('')
  const [type, setType] = useState<'normal' | 'synchronized'>('normal')
  const [agents, setAgents] = useState<SyncAgent[] | null>(null)
  const [agentId, setAgentId] = useState('')
  const [path, setPath] = useState('')
  const { failure, busy, attempt } = useAttempt()

  useEffect(() => {
    // Whether to offer the synchronized type at all: only with agents this person may bind.
    syncAgents().then(setAgents, () => setAgents([]))
  }, [])

  function send(event: FormEvent) {
    event.preventDefault()
    if (!name.trim()) return
    void attempt(async () => {
      if (type === 'synchronized') await makeSyncedFolder(name.trim(), parent, Number(agentId), path.trim())
      else await makeFolder(name.trim(), parent)
      onMade()
    })
  }

  const canSync = agents !== null && agents.length > 0
  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.new_folder')}
      onClose={onClose}
      testId="docs-folder-dialog"
    >
      <form onSubmit={send} className="docs-form">
        <label>
          {t('documents.screens.folder_name')}
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={255} required />
        </label>
        {canSync && (
          <fieldset className="docs-folder-type">
            <legend>{t('documents.sync.type')}</legend>
            <label className="docs-check">
              <input type="radio" name="folder-type" checked={type === 'normal'} onChange={() => setType('normal')} />
              {t('documents.sync.type_normal')}
            </label>
            <label className="docs-check">
              <input
                type="radio"
                name="folder-type"
                checked={type === 'synchronized'}
                onChange={() => setType('synchronized')}
              />
              {t('documents.sync.type_synchronized')}
            </label>
          </fieldset>
        )}
        {canSync && type === 'synchronized' && (
          <>
            <label>
              {t('documents.sync.agent')}
              <select value={agentId} onChange={(event) => setAgentId(event.target.value)} required>
                <option value="">{t('documents.sync.choose_agent')}</option>
                {agents.map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.name} ({t(agent.online ? 'documents.sync.online' : 'documents.sync.offline')})
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('documents.sync.path')}
              <input
                value={path}
                onChange={(event) => setPath(event.target.value)}
                maxLength={1000}
                required
                aria-describedby="docs-sync-path-hint"
                autoCapitalize="off"
                spellCheck={false}
              />
              <small id="docs-sync-path-hint">{t('documents.sync.path_hint')}</small>
            </label>
          </>
        )}
        <DialogActions submit={t('documents.screens.create')} busy={busy} failure={failure} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
