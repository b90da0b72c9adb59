/**
 * The send and save buttons placed in a form (spec 000 §3): #1C1066 and 45 px high by default. They do
 * what the bottom bar's send does, through the form's submit handler.
 */
import { BUTTON_COLOR, textColorFor } from '@tramita/contract'
import type { ElementProps } from '../../types.js'

export function SubmitElement({ item, store, onEvent }: ElementProps) {
  const style = (item.data.style ?? {}) as Record<string, unknown>
  const background = typeof style.background === 'string' && style.background ? style.background : BUTTON_COLOR
  const color = typeof style.color === 'string' && style.color ? style.color : textColorFor(background)
  return (
    <button
      type="button"
      className="button fsubmit"
      style={{ background, color, minHeight: Number(item.data.height) || 45, width: '100%' }}
      disabled={store.isReadOnlyCase()}
      onClick={() => {
        onEvent('on_click')
        store.requestSubmit(item.type === 'save' ? 'save' : 'send')
      }}
    >
      {String(item.data.value)}
    </button>
  )
}
