/** A colour: a picker for #rrggbb beside a box for any CSS colour (or none: the default applies). */
import type { LeafProps } from './leaf.js'
import { effectiveValue } from './values.js'
import { useTexts } from './panel_context.js'
import { pickerColour } from './colour.js'

export function ColourEditor({ node, shared, input, placeholder, commit }: LeafProps) {
  const texts = useTexts()
  const text = typeof shared.value === 'string' ? shared.value : ''
  const store = (value: string) => commit(value === '' && node.default === '' ? undefined : value)
  return (
    <span className="panel-colour">
      <input
        type="color"
        value={pickerColour(effectiveValue(node, shared.value))}
        onChange={(event) => store(event.target.value)}
        aria-label={texts.t('panel.pick_colour')}
        aria-describedby={input['aria-describedby']}
      />
      <input
        {...input}
        type="text"
        value={text}
        placeholder={placeholder}
        onChange={(event) => store(event.target.value)}
      />
    </span>
  )
}
