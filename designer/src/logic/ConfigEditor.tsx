/**
 * A step's config, generated from its action type's schema with the panel's editors: keys that name
 * a field, fields, an action or a page are choices among the form's; script keys open the script
 * editor (through the panel's ScriptLeaf); the rest get the editor their schema asks for.
 */
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { configRoles, type ActionType } from '@tramita/contract'
import { describeSchema, type JsonSchema } from '../panel/schema_nodes.js'
import { NodeEditor } from '../panel/NodeEditor.js'
import { problemsUnder } from '../panel/problems.js'
import type { ValueSource } from '../panel/source.js'
import type { ShownProblem } from '../panel/problems.js'
import { pageIndex, pageOptions, type NameOption } from './logic_context.js'
import { NameChecks, NameSelect } from './NameChoices.js'

export interface ConfigEditorProps {
  actionType: ActionType
  /** The step's values (paths inside the step: ['config', key]). */
  source: ValueSource
  /** The step's problems, with paths inside the step. */
  problems: readonly ShownProblem[]
  fields: readonly NameOption[]
  actions: readonly NameOption[]
  /** The form's page names, in order (pages are chosen by index). */
  pages: readonly string[]
}

export function ConfigEditor({ actionType, source, problems, fields, actions, pages }: ConfigEditorProps) {
  const { t } = useTranslation()
  const keys = useMemo(() => {
    const schema = actionType.schema as JsonSchema
    const required = new Set(schema.required ?? [])
    const roles = configRoles(actionType)
    return Object.entries(schema.properties ?? {}).map(([key, inner]) => ({
      key,
      role: roles[key],
      node: describeSchema(inner, ['config', key], required.has(key)),
    }))
  }, [actionType])
  if (keys.length === 0) return null
  return (
    <div className="logic-config" data-testid="step-config">
      {keys.map(({ key, role, node }) => {
        const at = ['config', key]
        const value = source.read(at).value
        const own = problemsUnder(problems, at)
        const write = (next: unknown) => source.write(at, next)
        const testId = `config-${key}`
        if (role === 'field') {
          return (
            <NameSelect
              key={key}
              label={t('logic.field')}
              value={value}
              options={fields}
              none={t('logic.choose')}
              problems={own}
              onChange={write}
              testId={testId}
            />
          )
        }
        if (role === 'fields') {
          return (
            <NameChecks
              key={key}
              label={t('logic.fields')}
              value={value}
              options={fields}
              problems={own}
              onChange={write}
            />
          )
        }
        if (role === 'action') {
          return (
            <NameSelect
              key={key}
              label={t('logic.action')}
              value={value}
              options={actions}
              none={t('logic.choose')}
              problems={own}
              onChange={write}
              testId={testId}
            />
          )
        }
        if (role === 'page') {
          return (
            <NameSelect
              key={key}
              label={t('logic.page')}
              value={pageIndex(pages, value ?? node.default)}
              options={pageOptions(pages)}
              none={t('logic.choose')}
              problems={own}
              onChange={(index) => write(index === undefined ? undefined : Number(index))}
              testId={testId}
            />
          )
        }
        return <NodeEditor key={key} node={node} source={source} at={at} abs={at} />
      })}
    </div>
  )
}
