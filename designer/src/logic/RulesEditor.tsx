/**
 * The form's autocomplete rules (spec 000 §3): the field each fills, its action, origin and query,
 * with the panel's editors generated from the contract's AutocompleteRule schema. Python origins are
 * allowed by the contract but not run by Tramita: the rule says so where it is designed.
 */
import { useTranslation } from 'react-i18next'
import { AutocompleteRule, type FieldTypeRegistry } from '@tramita/contract'
import {
  addAutocompleteRule,
  moveAutocompleteRule,
  removeAutocompleteRule,
  rulesOf,
  type DesignDocument,
  type ProblemIndex,
} from '../model/index.js'
import { describeSchema, type JsonSchema } from '../panel/schema_nodes.js'
import { PanelContext } from '../panel/panel_context.js'
import { NodeEditor } from '../panel/NodeEditor.js'
import { problemsAt } from '../panel/problems.js'
import { docSource, problemsInside, type NameOption, type Run } from './logic_context.js'
import { NameSelect } from './NameChoices.js'

const RULE = describeSchema(AutocompleteRule as JsonSchema)
const EDITED = (RULE.children ?? []).filter((node) => node.key !== 'id_field')

interface Props {
  doc: DesignDocument
  run: Run
  problems: ProblemIndex
  registry: FieldTypeRegistry
  /** Fields only: a rule fills a value. */
  fields: readonly NameOption[]
}

export function RulesEditor({ doc, run, problems, registry, fields }: Props) {
  const { t } = useTranslation()
  const rules = rulesOf(doc.jsonconfig)
  return (
    <section className="logic-rules" aria-label={t('logic.rules')} data-testid="logic-rules">
      <h3>{t('logic.rules')}</h3>
      {rules.length === 0 && <p className="panel-note">{t('logic.no_rules')}</p>}
      <ol>
        {rules.map((rule, index) => {
          const base = ['jsonconfig', 'validations', 'autocomplete', index]
          const own = problemsInside(problems, base)
          const title = t('logic.rule', { n: index + 1, field: rule.id_field })
          return (
            <li key={index} className="logic-rule" data-testid="rule">
              <div className="logic-step-head">
                <strong>{title}</strong>
                <span className="panel-entry-actions">
                  <button
                    type="button"
                    disabled={index === 0}
                    onClick={() => run(moveAutocompleteRule(index, index - 1))}
                    aria-label={t('logic.move_up', { name: title })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={index === rules.length - 1}
                    onClick={() => run(moveAutocompleteRule(index, index + 1))}
                    aria-label={t('logic.move_down', { name: title })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    onClick={() => run(removeAutocompleteRule(index))}
                    aria-label={t('logic.remove_rule', { n: index + 1 })}
                  >
                    ✕
                  </button>
                </span>
              </div>
              <PanelContext.Provider
                value={{ problems: own, multi: false, scripts: { form: doc.jsonconfig, registry } }}
              >
                <NameSelect
                  label={t('logic.rule_field')}
                  value={rule.id_field}
                  options={fields}
                  none={t('logic.choose')}
                  problems={problemsAt(own, ['id_field'])}
                  onChange={(name) => docSource(doc, run, base).write(['id_field'], name ?? '')}
                  testId="rule-field"
                />
                {rule.origin === 'python' && (
                  <p className="notice notice--error" role="alert" data-testid="python-refused">
                    {t('logic.python_refused')}
                  </p>
                )}
                {EDITED.map((node) => (
                  <NodeEditor
                    key={node.key}
                    node={node}
                    source={docSource(doc, run, base)}
                    at={node.path}
                    abs={node.path}
                  />
                ))}
              </PanelContext.Provider>
            </li>
          )
        })}
      </ol>
      <button type="button" data-testid="add-rule" onClick={() => run(addAutocompleteRule(fields[0]?.id ?? ''))}>
        {t('logic.add_rule')}
      </button>
    </section>
  )
}
