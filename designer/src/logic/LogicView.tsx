/**
 * The editor's "Lógica" view (issue 6): the form's actions and autocomplete rules. Every change is a
 * model command through the design's history; problems come from a deferred check of the document
 * (as the other views do) and show at their paths.
 */
import { useDeferredValue, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { coreActionRegistry, type ActionTypeRegistry, type FieldTypeRegistry } from '@tramita/contract'
import { indexProblems, itemLabel, validateDocument } from '../model/index.js'
import type { Design } from '../canvas/use_design.js'
import { ActionsEditor } from './ActionsEditor.js'
import { RulesEditor } from './RulesEditor.js'
import type { NameOption } from './logic_context.js'
import '../panel/panel.css'
import './logic.css'

export function LogicView({
  design,
  registry,
  actionTypes = coreActionRegistry(),
}: {
  design: Design
  registry: FieldTypeRegistry
  /** The core's and the enabled plugins' action types (virtual:tramita-action-types); the core's by default. */
  actionTypes?: ActionTypeRegistry
}) {
  const { t } = useTranslation()
  const { doc } = design
  const checked = useDeferredValue(doc)
  const problems = useMemo(
    () => indexProblems(checked, validateDocument(checked, registry, actionTypes)),
    [checked, registry, actionTypes]
  )
  const option = (item: { field_name: string; data?: Record<string, unknown> }): NameOption => {
    const label = itemLabel(item)
    return { id: item.field_name, label: label ? `${label} (${item.field_name})` : item.field_name }
  }
  const fields = doc.jsonconfig.fields.map(option)
  const items = [...fields, ...doc.jsonconfig.elements.map(option)]
  const run = (command: Parameters<Design['run']>[0], merge?: string) => design.run(command, merge)
  return (
    <div className="logic-view" aria-label={t('logic.title')} data-testid="logic-view">
      <ActionsEditor
        doc={doc}
        run={run}
        problems={problems}
        registry={registry}
        actionTypes={actionTypes}
        fields={items}
      />
      <RulesEditor doc={doc} run={run} problems={problems} registry={registry} fields={fields} />
    </div>
  )
}
