/**
 * The button element (spec 000 §3): its text on its background, the text colour by the spec's rule
 * (black on light, white on dark: textColorFor) unless the style names one. A click runs its on_click
 * script and its named actions (events.on_click, through the store's action engine).
 */
import { BUTTON_COLOR, textColorFor } from '@tramita/contract'
import type { ElementProps } from '../../types.js'
import '../fields/media/media.css'

export function ButtonElement({ item, store, onEvent }: ElementProps) {
  const style = (item.data.style ?? {}) as { background?: string; color?: string; height?: number }
  const background = style.background || BUTTON_COLOR
  const color = style.color || textColorFor(background)
  return (
    <button
      type="button"
      className="button media-element-button"
      style={{ background, color, minHeight: style.height || item.data.height, width: '100%' }}
      disabled={store.isDisabled(item.field_name)}
      onClick={() => onEvent('on_click')}
      onDoubleClick={() => onEvent('on_double_click')}
      data-testid="button-element"
    >
      {String(item.data.value ?? '')}
    </button>
  )
}
