/**
 * The property panel: the selected items' settings, with editors generated from their types' schemas
 * in the contract registry. Several items show the keys they share, and a change applies to all of
 * them through one `onChange(path, value)` (the model's setItemsValue takes every name at once).
 * `value` undefined removes the key: the type's default applies again.
 */
import { useMemo } from 'react'
import type { FieldTypeRegistry } from '@tramita/contract'
import { commonNode, type PanelItem } from './common.js'
import { panelGroups } from './groups.js'
import { editorPaths, gatherProblems, unplacedProblems, type ItemProblem } from './problems.js'
import { itemsSource } from './source.js'
import { PanelContext, useTexts } from './panel_context.js'
import { ProblemList } from './ProblemList.js'
import { PanelGroup } from './PanelGroup.js'
import type { ScriptFormConfig } from '../scripts/index.js'
import { translationOf } from './translation.js'
import type { Language } from '@tramita/i18n'
import './panel.css'

export interface PropertyPanelProps {
  /** The selected fields and elements, as the document stores them (sparse). */
  items: readonly PanelItem[]
  /** The registry the document's types come from (plugin types included). */
  registry: FieldTypeRegistry
  /** An item's problems with paths inside it (the model's `indexProblems(doc, problems).ofItem`). */
  problemsOf?: (name: string) => readonly ItemProblem[]
  /** Sets (or, with undefined, removes) the value at `path` inside every selected item. */
  onChange: (path: readonly string[], value: unknown) => void
  /** The form as it is now, for the script editors (without it scripts are plain text boxes). */
  form?: ScriptFormConfig
  /** The form's action names, offered for the fields' events. */
  actionNames?: readonly string[]
  /** Texts are being given in this language (the items' translations); none: the form's own texts. */
  language?: Language
}

const noProblems = () => []

export function PropertyPanel(props: PropertyPanelProps) {
  const { items, registry, problemsOf = noProblems, onChange, form, language, actionNames } = props
  const texts = useTexts()
  const types = items.map((item) => `${item.kind}:${item.item.type}`).join(' ')
  // The editor tree depends on the selected types only, not on their values.
  const root = useMemo(() => commonNode(registry, items), [registry, types])
  const single = items.length === 1
  const groups = useMemo(() => (root ? panelGroups(root, single) : []), [root, single])
  const source = itemsSource(
    items.map((item) => item.item),
    onChange
  )
  const problems = gatherProblems(
    items.map((item) => item.name),
    problemsOf
  )
  const paths = useMemo(() => editorPaths(groups.flatMap((group) => group.nodes)), [groups])
  const elsewhere = unplacedProblems(problems, paths.exact, paths.containers)
  // Without a language (the usual case) there is no translation and the context stays as it was.
  const translation = useMemo(
    () => (language ? translationOf(language, items, onChange) : undefined),
    [language, items, onChange]
  )
  const context = useMemo(
    () => ({
      problems,
      multi: !single,
      scripts: form ? { form, registry } : undefined,
      translation,
      actionNames,
      registry,
    }),
    [problems, single, form, registry, translation, actionNames]
  )

  return (
    <aside className="property-panel" aria-label={texts.t('panel.title')}>
      <h2>{texts.t('panel.title')}</h2>
      {items.length === 0 ? (
        <p className="panel-note">{texts.t('panel.nothing_selected')}</p>
      ) : (
        <>
          <p className="panel-selection">
            {single
              ? texts.tv('panel.one_selected', { name: items[0]!.name, type: items[0]!.item.type })
              : texts.tv('panel.many_selected', { count: items.length })}
          </p>
          {root ? null : <p className="panel-note">{texts.t('panel.unknown_type')}</p>}
          <PanelContext.Provider value={context}>
            <ProblemList problems={elsewhere} multi={!single} />
            {groups.map((group) => (
              <PanelGroup key={group.id} group={group} source={source} />
            ))}
          </PanelContext.Provider>
        </>
      )}
    </aside>
  )
}
