/**
 * One value's row: its label tied to the input, the input the schema asks for, the default (as a
 * placeholder, or a "default" mark), a reset button when a value is stored, and the contract's
 * problems at its path, which the input points to (aria-describedby) and is marked invalid by.
 */
import { useId, type ReactElement } from 'react'
import type { EditorNode, PathKey } from './schema_nodes.js'
import type { ValueSource } from './source.js'
import type { LeafProps } from './leaf.js'
import { defaultText } from './values.js'
import { keyLabel, labelIds } from './labels.js'
import { problemsAt, problemsUnder, showsInside } from './problems.js'
import { usePanel, useTexts } from './panel_context.js'
import { ProblemList } from './ProblemList.js'
import { ResetButton } from './ResetButton.js'
import { TextEditor } from './TextEditor.js'
import { ScriptLeaf } from './ScriptLeaf.js'
import { NumberEditor } from './NumberEditor.js'
import { BooleanEditor } from './BooleanEditor.js'
import { SelectEditor } from './SelectEditor.js'
import { ColourEditor } from './ColourEditor.js'
import { TagsEditor } from './TagsEditor.js'
import { JsonEditor } from './JsonEditor.js'

const INPUTS: Partial<Record<EditorNode['kind'], (props: LeafProps) => ReactElement>> = {
  text: TextEditor,
  script: ScriptLeaf,
  number: NumberEditor,
  boolean: BooleanEditor,
  select: SelectEditor,
  fixed: SelectEditor,
  colour: ColourEditor,
  tags: TagsEditor,
  json: JsonEditor,
}

export interface LeafEditorProps {
  node: EditorNode
  source: ValueSource
  /** The path inside the source. */
  at: readonly PathKey[]
  /** The path inside the item (problems, labels). */
  abs: readonly PathKey[]
}

export function LeafEditor({ node, source, at, abs }: LeafEditorProps) {
  const id = useId()
  const texts = useTexts()
  const { problems, multi } = usePanel()
  const shared = source.read(at)
  const label = keyLabel(texts, abs)
  const hint = labelIds(abs, 'hints').find((text) => texts.exists(text))
  const hintId = hint ? `${id}-hint` : undefined
  const own = (showsInside(node.kind) ? problemsUnder : problemsAt)(problems, abs)
  const problemsId = own.length > 0 ? `${id}-problems` : undefined
  const describedBy = [hintId, problemsId].filter(Boolean).join(' ') || undefined
  const placeholder = shared.mixed
    ? texts.t('panel.mixed')
    : node.default !== undefined
      ? defaultText(node.default)
      : node.optional
        ? texts.t('panel.not_set')
        : ''
  const Input = INPUTS[node.kind] ?? JsonEditor
  const commit = (value: unknown) => source.write(at, value)
  return (
    <div className={`panel-row panel-${node.kind}${own.length ? ' panel-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <Input
        node={node}
        shared={shared}
        input={{ id, 'aria-describedby': describedBy, 'aria-invalid': own.length > 0 || undefined }}
        placeholder={placeholder}
        commit={commit}
      />
      <span className="panel-state">
        {shared.set ? (
          <ResetButton name={label} onReset={() => commit(undefined)} />
        ) : node.default !== undefined ? (
          <span className="panel-default">{texts.t('panel.default')}</span>
        ) : null}
      </span>
      {hint ? (
        <small id={hintId} className="panel-hint">
          {texts.t(hint)}
        </small>
      ) : null}
      <ProblemList id={problemsId} problems={own} multi={multi} />
    </div>
  )
}
