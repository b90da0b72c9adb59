/** A choice among the schema's values; the first entry is the default (which removes the key). */
import type { LeafProps } from './leaf.js'
import { optionLabel } from './labels.js'
import { useTexts } from './panel_context.js'

const MIXED = '\u0000mixed'
const UNSET = ''

export function SelectEditor({ node, shared, input, commit }: LeafProps) {
  const texts = useTexts()
  const options = node.options ?? []
  const current = shared.mixed ? MIXED : shared.value === undefined ? UNSET : String(shared.value)
  const name = (option: string | number) => optionLabel(texts, node.key, option)
  const unsetText =
    node.default !== undefined
      ? texts.tv('panel.default_option', { value: name(node.default as string | number) })
      : texts.t('panel.not_set')
  return (
    <select
      {...input}
      value={current}
      disabled={node.kind === 'fixed'}
      onChange={(event) => {
        const picked = options.find((option) => String(option) === event.target.value)
        commit(event.target.value === UNSET ? undefined : picked)
      }}
    >
      {shared.mixed ? (
        <option value={MIXED} disabled>
          {texts.t('panel.mixed')}
        </option>
      ) : null}
      <option value={UNSET}>{unsetText}</option>
      {options.map((option) => (
        <option key={String(option)} value={String(option)}>
          {name(option)}
        </option>
      ))}
    </select>
  )
}
