/**
 * The machines screen (spec 001 §2; issue 21), /devices/machines, for superusers: every printer and
 * scanner its agent reported, with its name, brand, model, location, IP, agent, availability (the spec's
 * "not available", "print only", "scan only", "available"), trays and the people assigned to it. A
 * dialog changes its name, brand, model and location and who may use it (people found by name in the
 * core's list for selectors), saved at once; a refusal is the server's message, shown in the dialog.
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { DialogActions, useAttempt } from '@tramita/web/dialog-form'
import { useLoaded } from '@tramita/web/loading'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import type { MachineRow } from '../../shared/devices.js'
import { machines as listMachines, people as listPeople, updateMachine, type Person } from '../api.js'
import { AvailabilityBadge, Cell, LIVE_MS, ListState } from './parts.js'
import '@tramita/web/screens.css'
import './devices.css'

export default function Machines() {
  const { t } = useTranslation()
  const { value: all, failure, reload } = useLoaded(listMachines, { refreshMs: LIVE_MS })
  const [editing, setEditing] = useState<MachineRow | null>(null)
  const none = <span className="muted">—</span>

  return (
    <Page title={t('devices.screens.machines')} testId="dev-machines">
      <p className="muted dev-lead">{t('devices.screens.machines_lead')}</p>
      <section
        aria-label={t('devices.screens.machines')}
        aria-busy={all === null && failure === null}
        data-testid="dev-machine-list"
      >
        <ListState loading={all === null} failure={failure} onRetry={reload} />
        {all?.length === 0 && <p className="muted">{t('devices.screens.no_machines')}</p>}
        {all && all.length > 0 && (
          <table className="data-table dev-table dev-table--wide">
            <thead>
              <tr>
                <th scope="col">{t('devices.screens.name')}</th>
                <th scope="col">{t('devices.screens.brand')}</th>
                <th scope="col">{t('devices.screens.model')}</th>
                <th scope="col">{t('devices.screens.location')}</th>
                <th scope="col">{t('devices.screens.ip')}</th>
                <th scope="col">{t('devices.screens.agent')}</th>
                <th scope="col">{t('devices.screens.availability')}</th>
                <th scope="col">{t('devices.screens.trays')}</th>
                <th scope="col">{t('devices.screens.people')}</th>
                <th scope="col">{t('devices.screens.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {all.map((machine) => (
                <tr key={machine.id} data-testid="dev-machine" data-name={machine.name}>
                  <th scope="row" className="dev-table__name">
                    {machine.name}
                  </th>
                  <Cell label={t('devices.screens.brand')}>{machine.brand || none}</Cell>
                  <Cell label={t('devices.screens.model')}>{machine.model || none}</Cell>
                  <Cell label={t('devices.screens.location')} className="dev-table__wrap">
                    {machine.location || none}
                  </Cell>
                  <Cell label={t('devices.screens.ip')}>
                    {machine.ip ? <span className="dev-mono">{machine.ip}</span> : none}
                  </Cell>
                  <Cell label={t('devices.screens.agent')} className="dev-table__wrap">
                    {machine.agent_name ?? none}
                  </Cell>
                  <Cell label={t('devices.screens.availability')}>
                    <AvailabilityBadge availability={machine.availability} />
                  </Cell>
                  <Cell label={t('devices.screens.trays')} className="dev-table__wrap">
                    {machine.trays.length ? machine.trays.join(', ') : none}
                  </Cell>
                  <Cell label={t('devices.screens.people')} className="dev-table__wrap" testId="dev-people">
                    {machine.people.length ? machine.people.map((p) => p.name).join(', ') : none}
                  </Cell>
                  <td className="dev-table__actions">
                    <button type="button" className="link-button" onClick={() => setEditing(machine)}>
                      {t('devices.screens.edit')}
                      <span className="visually-hidden"> {machine.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {editing && (
        <Dialog
          className="dev-dialog"
          title={t('devices.screens.edit_machine_title', { name: editing.name })}
          onClose={() => setEditing(null)}
          testId="dev-machine-dialog"
        >
          <MachineForm
            machine={editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null)
              toasts.success(t('devices.screens.machine_saved'))
              reload()
            }}
          />
        </Dialog>
      )}
    </Page>
  )
}

type Text = 'name' | 'brand' | 'model' | 'location'
/** The columns' sizes (devices_machines): the server refuses longer ones. */
const MAX: Record<Text, number> = { name: 150, brand: 100, model: 100, location: 200 }

function MachineForm({ machine, onCancel, onSaved }: { machine: MachineRow; onCancel(): void; onSaved(): void }) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<Record<Text, string>>({
    name: machine.name,
    brand: machine.brand,
    model: machine.model,
    location: machine.location,
  })
  const [chosen, setChosen] = useState<Person[]>(machine.people)
  const { failure, busy, attempt } = useAttempt()

  function send(event: FormEvent) {
    event.preventDefault()
    void attempt(async () => {
      await updateMachine(machine.id, {
        name: draft.name.trim(),
        brand: draft.brand.trim(),
        model: draft.model.trim(),
        location: draft.location.trim(),
        people: chosen.map((p) => p.id),
      })
      onSaved()
    })
  }

  const text = (key: Text) => (
    <label>
      {t(`devices.screens.${key}`)}
      <input
        value={draft[key]}
        maxLength={MAX[key]}
        required={key === 'name'}
        onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
      />
    </label>
  )

  return (
    <form className="dev-form" onSubmit={send} data-testid="dev-machine-form">
      {text('name')}
      <div className="dev-form__pair">
        {text('brand')}
        {text('model')}
      </div>
      {text('location')}
      <PeoplePicker chosen={chosen} onChange={setChosen} />
      <DialogActions submit={t('devices.screens.save')} busy={busy} failure={failure} onCancel={onCancel} />
    </form>
  )
}

/** Letters without accents or case, so "jose" finds "José". */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()

/** How many matches the picker lists at once (a narrower search finds the rest). */
const MATCHES_SHOWN = 8

/**
 * The people who may use the machine: those chosen, each with a way to take them off, and a search by
 * name over the core's list of people (GET /data/allusers, as the documents' share dialog reads it).
 */
function PeoplePicker({ chosen, onChange }: { chosen: Person[]; onChange(people: Person[]): void }) {
  const { t } = useTranslation()
  const { value: everyone, failure, reload } = useLoaded(listPeople)
  const [query, setQuery] = useState('')
  const wanted = folded(query.trim())
  const matches = wanted
    ? (everyone ?? []).filter((p) => !chosen.some((c) => c.id === p.id) && folded(p.name).includes(wanted))
    : []

  function add(person: Person) {
    onChange([...chosen, person])
    setQuery('')
  }

  // Enter in the search adds the first match rather than saving the form.
  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return
    event.preventDefault()
    if (matches[0]) add(matches[0])
  }

  return (
    <fieldset className="dev-people" data-testid="dev-people-picker">
      <legend>{t('devices.screens.people')}</legend>
      <p className="muted">{t('devices.screens.people_help')}</p>
      {chosen.length === 0 ? (
        <p className="muted">{t('devices.screens.no_people')}</p>
      ) : (
        <ul className="dev-chips" aria-label={t('devices.screens.people_chosen')}>
          {chosen.map((person) => (
            <li key={person.id} className="dev-chip">
              {person.name}
              <button
                type="button"
                className="dev-chip__remove"
                aria-label={t('devices.screens.remove_person', { name: person.name })}
                title={t('devices.screens.remove_person', { name: person.name })}
                onClick={() => onChange(chosen.filter((c) => c.id !== person.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label>
        {t('devices.screens.search_people')}
        <input
          type="search"
          value={query}
          autoComplete="off"
          aria-describedby="dev-people-found"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKey}
        />
      </label>
      {failure && (
        <div className="notice notice--error dev-failure" role="alert">
          <p>{failure}</p>
          <button type="button" className="button button--quiet" onClick={reload}>
            {t('devices.screens.retry')}
          </button>
        </div>
      )}
      <p id="dev-people-found" className="muted" role="status">
        {wanted && everyone === null && !failure && t('devices.screens.loading')}
        {wanted &&
          everyone !== null &&
          (matches.length
            ? t('devices.screens.people_found', { count: matches.length }) +
              (matches.length > MATCHES_SHOWN ? ` ${t('devices.screens.people_more', { shown: MATCHES_SHOWN })}` : '')
            : t('devices.screens.people_none'))}
      </p>
      {matches.length > 0 && (
        <ul className="dev-matches" aria-label={t('devices.screens.people_matches')}>
          {matches.slice(0, MATCHES_SHOWN).map((person) => (
            <li key={person.id}>
              <button type="button" className="link-button" onClick={() => add(person)}>
                {t('devices.screens.add_person', { name: person.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
