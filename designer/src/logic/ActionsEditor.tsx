/** The form's actions: a list to add, pick, move, duplicate and delete (listing where it is used), and the picked one's editor. */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ActionTypeRegistry, FieldTypeRegistry } from '@tramita/contract'
import {
  actionUsages,
  actionsOf,
  addAction,
  duplicateAction,
  moveAction,
  removeAction,
  type ActionUsage,
  type DesignDocument,
  type ProblemIndex,
} from '../model/index.js'
import { ActionDetail } from './ActionDetail.js'
import type { NameOption, Run } from './logic_context.js'

interface Props {
  doc: DesignDocument
  run: Run
  problems: ProblemIndex
  registry: FieldTypeRegistry
  actionTypes: ActionTypeRegistry
  fields: readonly NameOption[]
}

export function ActionsEditor({ doc, run, problems, registry, actionTypes, fields }: Props) {
  const { t } = useTranslation()
  const actions = actionsOf(doc.jsonconfig)
  const [picked, setPicked] = useState(0)
  const shown = Math.min(picked, actions.length - 1)
  const names: NameOption[] = actions.map((a) => ({ id: a.name, label: a.name }))
  const place = (usage: ActionUsage) =>
    t(usage.kind === 'event' ? 'logic.used_event' : 'logic.used_step', { owner: usage.owner, detail: usage.detail })
  const usages = shown >= 0 ? actionUsages(doc.jsonconfig, actions[shown]!.name, actionTypes) : []
  const remove = (index: number) => {
    const used = actionUsages(doc.jsonconfig, actions[index]!.name, actionTypes)
    const places = used.map(place).join(', ')
    if (used.length > 0 && !window.confirm(t('logic.delete_used', { name: actions[index]!.name, places }))) return
    run(removeAction(index))
  }
  return (
    <section className="logic-actions" aria-label={t('logic.actions')} data-testid="logic-actions">
      <h3>{t('logic.actions')}</h3>
      <div className="logic-split">
        <div className="logic-list">
          {actions.length === 0 && <p className="panel-note">{t('logic.no_actions')}</p>}
          <ol>
            {actions.map((action, index) => {
              const bad = problems.under(['jsonconfig', 'validations', 'actions', index]).length > 0
              return (
                <li key={index} className={index === shown ? 'logic-picked' : undefined}>
                  <button
                    type="button"
                    className={bad ? 'logic-bad' : undefined}
                    aria-current={index === shown || undefined}
                    data-testid="action"
                    data-name={action.name}
                    onClick={() => setPicked(index)}
                  >
                    {action.name}
                    {bad ? ' ⚠' : ''}
                  </button>
                  <span className="panel-entry-actions">
                    <button
                      type="button"
                      disabled={index === 0}
                      aria-label={t('logic.move_up', { name: action.name })}
                      onClick={() => run(moveAction(index, index - 1)) && index === shown && setPicked(index - 1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      disabled={index === actions.length - 1}
                      aria-label={t('logic.move_down', { name: action.name })}
                      onClick={() => run(moveAction(index, index + 1)) && index === shown && setPicked(index + 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      aria-label={t('logic.duplicate', { name: action.name })}
                      onClick={() => run(duplicateAction(index)) && setPicked(index + 1)}
                    >
                      ⧉
                    </button>
                    <button
                      type="button"
                      aria-label={t('logic.delete', { name: action.name })}
                      onClick={() => remove(index)}
                    >
                      ✕
                    </button>
                  </span>
                </li>
              )
            })}
          </ol>
          <button type="button" data-testid="add-action" onClick={() => run(addAction()) && setPicked(actions.length)}>
            {t('logic.add_action')}
          </button>
        </div>
        {shown >= 0 && (
          <div className="logic-main">
            <p className="panel-note" data-testid="action-usages">
              {usages.length > 0 ? t('logic.used_in', { places: usages.map(place).join(', ') }) : t('logic.not_used')}
            </p>
            <ActionDetail
              key={shown}
              doc={doc}
              run={run}
              index={shown}
              action={actions[shown]!}
              problems={problems}
              registry={registry}
              actionTypes={actionTypes}
              fields={fields}
              actions={names}
            />
          </div>
        )}
      </div>
    </section>
  )
}
