import { useTranslation } from 'react-i18next'
import { ASSIGNEE_KINDS, DECISION_COMMENT_RULES, fourEyes } from '@tramita/contract'
import { addDecision, removeDecision, removeStep, setValue, type Command, type ProblemIndex } from '../model/index.js'
import type { Directory } from './people.js'
import { Choice, Field, Problems } from './fields.js'

export interface StepJson {
  id: string
  label?: string
  kind?: 'fill' | 'approve'
  assign?: { type?: string; id?: number; email?: string; name?: string; field?: string }
  state?: string
  next?: { step?: string | null; state?: string }
  decisions?: {
    id: string
    label?: string
    color?: string
    next?: { step?: string | null; state?: string }
    comment?: (typeof DECISION_COMMENT_RULES)[number]
  }[]
  go_to_states?: string[]
  notify?: boolean
  four_eyes?: boolean
}

interface Props {
  step: StepJson
  index: number
  steps: { id: string; label: string }[]
  states: { id: string; label: string }[]
  fields: { id: string; label: string }[]
  directory: Directory | null
  apply: (c: Command, merge?: string) => void
  problems: ProblemIndex
}

/** One step: its name, who does it, the state it enters, where it leads (or its decisions), mail. */
export function StepEditor({ step, index, steps, states, fields, directory, apply, problems }: Props) {
  const { t } = useTranslation()
  const at = `/process/steps/${index}`
  const set = (path: string, value: unknown) => apply(setValue(`${at}${path}`, value), `${at}${path}`)
  const assign = step.assign ?? {}
  const people = assign.type === 'user' ? directory?.users : assign.type === 'rol' ? directory?.roles : directory?.areas
  const others = steps.filter((s) => s.id !== step.id)
  return (
    <fieldset className="process-step" data-testid={`step-${step.id}`}>
      <legend>
        {step.label || step.id} · {t(step.kind === 'approve' ? 'process.kind_approve' : 'process.kind_fill')}
      </legend>
      <Field label={t('process.step_name')}>
        <input value={step.label ?? ''} onChange={(e) => set('/label', e.target.value)} />
      </Field>
      <Problems problems={problems} path={`${at}/label`} />
      <Choice
        label={t('process.assignee_type')}
        value={assign.type ?? ''}
        options={ASSIGNEE_KINDS.map((k) => ({ id: k, label: t(`process.assignee_${k}`) }))}
        onChange={(type) => set('/assign', { type })}
      />
      {(assign.type === 'user' || assign.type === 'rol' || assign.type === 'area') && (
        <Choice
          label={t('process.assignee')}
          value={assign.id ? String(assign.id) : ''}
          none={t('process.nobody')}
          options={(people ?? []).map((p) => ({
            id: String(p.id),
            // The spec's four roles by their name in the designer's language; any other role as named.
            label: assign.type === 'rol' ? t(`role_names.${p.label}`, { defaultValue: p.label }) : p.label,
          }))}
          onChange={(id) => set('/assign/id', id ? Number(id) : undefined)}
        />
      )}
      {assign.type === 'external' && (
        <>
          <Field label={t('process.email')}>
            <input type="email" value={assign.email ?? ''} onChange={(e) => set('/assign/email', e.target.value)} />
          </Field>
          <Field label={t('process.person_name')}>
            <input value={assign.name ?? ''} onChange={(e) => set('/assign/name', e.target.value || undefined)} />
          </Field>
        </>
      )}
      {assign.type === 'field' && (
        <Choice
          label={t('process.assignee_field')}
          value={assign.field ?? ''}
          none={t('process.nobody')}
          options={fields}
          onChange={(field) => set('/assign/field', field || undefined)}
        />
      )}
      <Problems problems={problems} path={`${at}/assign`} />
      <Choice
        label={t('process.enters_state')}
        value={step.state ?? ''}
        none={t('process.unchanged')}
        options={states}
        onChange={(state) => set('/state', state || undefined)}
      />
      {step.kind === 'approve' ? (
        <ul className="process-decisions">
          {(step.decisions ?? []).map((decision, d) => (
            <li key={decision.id}>
              <input
                aria-label={t('process.decision_name')}
                value={decision.label ?? ''}
                onChange={(e) => set(`/decisions/${d}/label`, e.target.value)}
              />
              <input
                type="color"
                aria-label={t('process.color')}
                value={decision.color ?? '#336699'}
                onChange={(e) => set(`/decisions/${d}/color`, e.target.value)}
              />
              <NextEditor
                next={decision.next}
                steps={others}
                states={states}
                onChange={(next) => set(`/decisions/${d}/next`, next)}
              />
              {/* Whether the person deciding writes a comment (optional when unset, the schema's default). */}
              <Choice
                label={t('process.decision_comment')}
                value={decision.comment ?? 'optional'}
                options={DECISION_COMMENT_RULES.map((rule) => ({ id: rule, label: t(`process.comment_${rule}`) }))}
                onChange={(rule) => set(`/decisions/${d}/comment`, rule)}
              />
              <button type="button" onClick={() => apply(removeDecision(step.id, decision.id))}>
                {t('process.remove')}
              </button>
              <Problems problems={problems} path={`${at}/decisions/${d}/label`} />
            </li>
          ))}
          <li>
            <button type="button" onClick={() => apply(addDecision(step.id, t('process.new_decision')))}>
              {t('process.add_decision')}
            </button>
          </li>
        </ul>
      ) : (
        <NextEditor next={step.next} steps={others} states={states} onChange={(next) => set('/next', next)} />
      )}
      <Problems problems={problems} path={`${at}/next`} />
      <Field label={t('process.notify')}>
        <input type="checkbox" checked={step.notify ?? true} onChange={(e) => set('/notify', e.target.checked)} />
      </Field>
      <Field label={t('process.four_eyes')}>
        <input
          type="checkbox"
          checked={fourEyes({ kind: step.kind ?? 'fill', four_eyes: step.four_eyes })}
          onChange={(e) => set('/four_eyes', e.target.checked)}
          data-testid="step-four-eyes"
        />
      </Field>
      <button type="button" className="process-remove-step" onClick={() => apply(removeStep(step.id))}>
        {t('process.remove_step')}
      </button>
    </fieldset>
  )
}

/** Where the case goes: a step, or the end; and the state entered on the way. */
export function NextEditor(props: {
  next: { step?: string | null; state?: string } | undefined
  steps: { id: string; label: string }[]
  states: { id: string; label: string }[]
  onChange: (next: { step: string | null; state?: string }) => void
}) {
  const { t } = useTranslation()
  const next = { step: props.next?.step ?? null, ...(props.next?.state ? { state: props.next.state } : {}) }
  return (
    <span className="process-next">
      <Choice
        label={t('process.goes_to')}
        value={next.step ?? ''}
        none={t('process.ends_case')}
        options={props.steps}
        onChange={(step) => props.onChange({ ...next, step: step || null })}
      />
      <Choice
        label={t('process.on_the_way')}
        value={next.state ?? ''}
        none={t('process.unchanged')}
        options={props.states}
        onChange={(state) => {
          const { step } = next
          props.onChange(state ? { step, state } : { step })
        }}
      />
    </span>
  )
}
