import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { addStep, itemLabel, setValue, type Command, type DesignDocument, type ProblemIndex } from '../model/index.js'
import type { Directory } from './people.js'
import { Choice, Field, Problems } from './fields.js'
import { StatesEditor } from './StatesEditor.js'
import { NextEditor, StepEditor, type StepJson } from './StepEditor.js'
import { ShownOnSteps } from './ShownOnSteps.js'
import './process.css'

interface Props {
  doc: DesignDocument
  /** Runs a command; edits of one value in a row share `merge` (one undo step for a typed word). */
  apply: (command: Command, merge?: string) => void
  problems: ProblemIndex
  /** Users, roles and areas to give steps to (null while loading). */
  directory: Directory | null
}

type Consult = {
  enable?: boolean
  select_restrinct_consult?: string
  label_restrinct_consult?: string
  select_show_info?: string[]
  activity_register?: boolean
}

/**
 * The form's process, designed beside it (issue 6, Process): states, where new cases go, the steps
 * and who does each, approvals and their decisions, mail, and the public consultation. Every change
 * is a model command, so it is undone, saved and validated like the form's.
 */
export function ProcessEditor({ doc, apply, problems, directory }: Props) {
  const { t } = useTranslation()
  const [newStep, setNewStep] = useState({ label: '', kind: 'fill' as 'fill' | 'approve' })
  const process = doc.process as {
    label?: string
    color?: string
    states?: { id: string; label: string; color?: string }[]
    start?: { step?: string | null; state?: string }
    steps?: StepJson[]
    external_consultation?: Consult
  }
  const states = (process.states ?? []).map((s) => ({ id: s.id, label: s.label || s.id }))
  const steps = (process.steps ?? []).map((s) => ({ id: s.id, label: s.label || s.id }))
  const fields = doc.jsonconfig.fields.map((f) => ({
    id: f.field_name,
    label: itemLabel(f) || f.field_name,
  }))
  const consult = process.external_consultation ?? {}
  const set = (path: string, value: unknown) => apply(setValue(path, value), path)
  return (
    <section className="process-editor" aria-label={t('process.title')} data-testid="process-editor">
      <Field label={t('process.label')}>
        <input value={process.label ?? ''} onChange={(e) => set('/process/label', e.target.value)} />
      </Field>
      <Problems problems={problems} path="/process/label" />
      <StatesEditor states={process.states ?? []} apply={apply} problems={problems} />
      <fieldset>
        <legend>{t('process.start')}</legend>
        <NextEditor
          next={process.start}
          steps={steps}
          states={states}
          onChange={(next) => set('/process/start', next)}
        />
        <Problems problems={problems} path="/process/start" />
      </fieldset>
      {(process.steps ?? []).map((step, index) => (
        <StepEditor
          key={step.id}
          step={step}
          index={index}
          steps={steps}
          states={states}
          fields={fields}
          directory={directory}
          apply={apply}
          problems={problems}
        />
      ))}
      <form
        className="process-add-step"
        onSubmit={(e) => {
          e.preventDefault()
          if (newStep.label.trim() === '') return
          apply(addStep(newStep.kind, newStep.label))
          setNewStep({ ...newStep, label: '' })
        }}
      >
        <input
          aria-label={t('process.step_name')}
          value={newStep.label}
          onChange={(e) => setNewStep({ ...newStep, label: e.target.value })}
        />
        <Choice
          label={t('process.kind')}
          value={newStep.kind}
          options={[
            { id: 'fill', label: t('process.kind_fill') },
            { id: 'approve', label: t('process.kind_approve') },
          ]}
          onChange={(kind) => setNewStep({ ...newStep, kind: kind as 'fill' | 'approve' })}
        />
        <button type="submit">{t('process.add_step')}</button>
      </form>
      <ShownOnSteps doc={doc} apply={apply} />
      <fieldset>
        <legend>{t('process.consultation')}</legend>
        <Field label={t('process.consult_enable')}>
          <input
            type="checkbox"
            checked={consult.enable ?? false}
            onChange={(e) => set('/process/external_consultation/enable', e.target.checked)}
          />
        </Field>
        <Choice
          label={t('process.consult_field')}
          value={consult.select_restrinct_consult ?? ''}
          none={t('process.only_code')}
          options={fields}
          onChange={(field) => set('/process/external_consultation/select_restrinct_consult', field)}
        />
        <Field label={t('process.consult_label')}>
          <input
            value={consult.label_restrinct_consult ?? ''}
            onChange={(e) => set('/process/external_consultation/label_restrinct_consult', e.target.value)}
          />
        </Field>
        <Field label={t('process.consult_activity')}>
          <input
            type="checkbox"
            checked={consult.activity_register ?? false}
            onChange={(e) => set('/process/external_consultation/activity_register', e.target.checked)}
          />
        </Field>
        <div role="group" aria-label={t('process.consult_shown')}>
          <span>{t('process.consult_shown')}</span>
          {fields.map((field) => {
            const shown = consult.select_show_info ?? []
            return (
              <label key={field.id}>
                <input
                  type="checkbox"
                  checked={shown.includes(field.id)}
                  onChange={(e) =>
                    set(
                      '/process/external_consultation/select_show_info',
                      e.target.checked ? [...shown, field.id] : shown.filter((s) => s !== field.id)
                    )
                  }
                />{' '}
                {field.label}
              </label>
            )
          })}
        </div>
        <Problems problems={problems} path="/process/external_consultation" />
      </fieldset>
    </section>
  )
}
