/**
 * One action: its name (a rename follows the fields' events and start_action steps), whether it runs
 * at init, its condition (the Monaco script editor, typed from the form), its start page and steps.
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ActionDefinition, type ActionTypeRegistry, type FieldTypeRegistry } from '@tramita/contract'
import { renameAction, type DesignDocument, type DraftAction, type ProblemIndex } from '../model/index.js'
import { describeSchema, nodeAt, type JsonSchema } from '../panel/schema_nodes.js'
import { PanelContext } from '../panel/panel_context.js'
import { NodeEditor } from '../panel/NodeEditor.js'
import { problemsAt, problemsUnder } from '../panel/problems.js'
import { docSource, pageIndex, pageOptions, problemsInside, type NameOption, type Run } from './logic_context.js'
import { NameSelect, Row } from './NameChoices.js'
import { StepsEditor } from './StepsEditor.js'

const schema = describeSchema(ActionDefinition as JsonSchema)
const ONEVENT = nodeAt(schema, ['onevent'])!
const CONDITION_ACTIVE = nodeAt(schema, ['conditions', 'active'])!
const CONDITION_CODE = nodeAt(schema, ['conditions', 'code'])!
const START_ACTIVE = nodeAt(schema, ['start_page', 'active'])!

interface Props {
  doc: DesignDocument
  run: Run
  index: number
  action: DraftAction
  problems: ProblemIndex
  registry: FieldTypeRegistry
  actionTypes: ActionTypeRegistry
  fields: readonly NameOption[]
  actions: readonly NameOption[]
}

export function ActionDetail({ doc, run, index, action, problems, registry, actionTypes, fields, actions }: Props) {
  const { t } = useTranslation()
  const base = ['jsonconfig', 'validations', 'actions', index]
  const own = problemsInside(problems, base)
  const source = docSource(doc, run, base)
  const pages = doc.jsonconfig.form.pages.map((page) => page.name)
  const [name, setName] = useState(action.name)
  useEffect(() => setName(action.name), [action.name])
  const rename = () => {
    if (name.trim() === action.name) return setName(action.name)
    if (!run(renameAction(index, name, actionTypes))) setName(action.name)
  }
  const context = { problems: own, multi: false, scripts: { form: doc.jsonconfig, registry } }
  return (
    <section className="logic-detail" aria-label={action.name} data-testid="action-detail">
      <PanelContext.Provider value={context}>
        <Row label={t('logic.name')} problems={problemsAt(own, ['name'])}>
          {(input) => (
            <input
              {...input}
              type="text"
              value={name}
              data-testid="action-name"
              onChange={(e) => setName(e.target.value)}
              onBlur={rename}
              onKeyDown={(e) => {
                if (e.key === 'Enter') e.currentTarget.blur()
              }}
            />
          )}
        </Row>
        <NodeEditor node={ONEVENT} source={source} at={['onevent']} abs={['onevent']} />
        <NodeEditor node={CONDITION_ACTIVE} source={source} at={CONDITION_ACTIVE.path} abs={CONDITION_ACTIVE.path} />
        <NodeEditor node={CONDITION_CODE} source={source} at={CONDITION_CODE.path} abs={CONDITION_CODE.path} />
        <NodeEditor node={START_ACTIVE} source={source} at={START_ACTIVE.path} abs={START_ACTIVE.path} />
        <NameSelect
          label={t('logic.start_page')}
          value={pageIndex(pages, action.start_page?.page ?? 0)}
          options={pageOptions(pages)}
          none={t('logic.choose')}
          problems={problemsUnder(own, ['start_page', 'page'])}
          onChange={(page) => source.write(['start_page', 'page'], page === undefined ? undefined : Number(page))}
          testId="start-page"
        />
      </PanelContext.Provider>
      <StepsEditor
        doc={doc}
        run={run}
        index={index}
        steps={action.actions ?? []}
        problems={problems}
        registry={registry}
        actionTypes={actionTypes}
        fields={fields}
        actions={actions}
        pages={pages}
      />
    </section>
  )
}
