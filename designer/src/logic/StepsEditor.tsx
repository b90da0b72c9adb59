/** An action's ordered steps: each a type from the action-type registry and its config; add, move, remove. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ActionTypeRegistry, FieldTypeRegistry } from '@tramita/contract'
import { inWords } from '../canvas/type_names.js'
import {
  addActionStep,
  moveActionStep,
  removeActionStep,
  setActionStepType,
  type DesignDocument,
  type DraftStep,
  type ProblemIndex,
} from '../model/index.js'
import { PanelContext } from '../panel/panel_context.js'
import { problemsAt } from '../panel/problems.js'
import { ProblemList } from '../panel/ProblemList.js'
import { ConfigEditor } from './ConfigEditor.js'
import { docSource, problemsInside, type NameOption, type Run } from './logic_context.js'
import { Row } from './NameChoices.js'

interface Props {
  doc: DesignDocument
  run: Run
  index: number
  steps: readonly DraftStep[]
  problems: ProblemIndex
  registry: FieldTypeRegistry
  actionTypes: ActionTypeRegistry
  fields: readonly NameOption[]
  actions: readonly NameOption[]
  pages: readonly string[]
}

export function StepsEditor(props: Props) {
  const { doc, run, index, steps, problems, registry, actionTypes } = props
  const { t } = useTranslation()
  const types = actionTypes.list().map((one) => one.type)
  const [newType, setNewType] = useState(types[0] ?? '')
  // A plugin's type (its texts are its own) shows its id in words, as the palette does.
  const typeName = (type: string) => t(`logic.types.${type}`, { defaultValue: inWords(type) })
  return (
    <section className="logic-steps" aria-label={t('logic.steps')}>
      <h4>{t('logic.steps')}</h4>
      {steps.length === 0 && <p className="panel-note">{t('logic.no_steps')}</p>}
      <ol>
        {steps.map((step, s) => {
          const base = ['jsonconfig', 'validations', 'actions', index, 'actions', s]
          const actionType = actionTypes.get(step.type)
          const own = problemsInside(problems, base)
          const title = t('logic.step', { n: s + 1, type: typeName(step.type) })
          // What no editor of the step shows (a key the type does not know): listed under it.
          const known = Object.keys(actionType?.schema.properties ?? {}).map((key) => `/config/${key}`)
          const elsewhere = own.filter(
            (p) => p.path !== '/type' && !known.some((k) => p.path === k || p.path.startsWith(k + '/'))
          )
          return (
            <li key={s} className="logic-step" data-testid="step" data-type={step.type}>
              <div className="logic-step-head">
                <strong>{title}</strong>
                <span className="panel-entry-actions">
                  <button
                    type="button"
                    disabled={s === 0}
                    onClick={() => run(moveActionStep(index, s, s - 1))}
                    aria-label={t('logic.move_up', { name: title })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={s === steps.length - 1}
                    onClick={() => run(moveActionStep(index, s, s + 1))}
                    aria-label={t('logic.move_down', { name: title })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    onClick={() => run(removeActionStep(index, s))}
                    aria-label={t('logic.remove_step', { n: s + 1 })}
                  >
                    ✕
                  </button>
                </span>
              </div>
              <Row label={t('logic.step_type')} problems={problemsAt(own, ['type'])}>
                {(input) => (
                  <select
                    {...input}
                    value={step.type}
                    data-testid="step-type"
                    onChange={(e) => run(setActionStepType(index, s, e.target.value, actionTypes))}
                  >
                    {!actionType && <option value={step.type}>{step.type}</option>}
                    {types.map((type) => (
                      <option key={type} value={type}>
                        {typeName(type)}
                      </option>
                    ))}
                  </select>
                )}
              </Row>
              {actionType ? (
                <PanelContext.Provider
                  value={{ problems: own, multi: false, scripts: { form: doc.jsonconfig, registry } }}
                >
                  <ConfigEditor
                    actionType={actionType}
                    source={docSource(doc, run, base)}
                    problems={own}
                    fields={props.fields}
                    actions={props.actions}
                    pages={props.pages}
                  />
                </PanelContext.Provider>
              ) : null}
              <ProblemList problems={elsewhere} multi={false} />
            </li>
          )
        })}
      </ol>
      <div className="logic-add">
        <label>
          {t('logic.new_step_type')}{' '}
          <select value={newType} onChange={(e) => setNewType(e.target.value)} data-testid="new-step-type">
            {types.map((type) => (
              <option key={type} value={type}>
                {typeName(type)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => run(addActionStep(index, newType, actionTypes))} data-testid="add-step">
          {t('logic.add_step')}
        </button>
      </div>
    </section>
  )
}
