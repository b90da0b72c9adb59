/**
 * dnd-kit's keyboard sensor (6.3.1), except that it hears the keys pressed right after the pick-up.
 *
 * dnd-kit starts listening for the drag's keys in a timer after the key that picked the item up
 * (`setTimeout(() => listeners.add('keydown', ...))` in its attach), so that the pick-up key itself
 * is not read as the drop. Chromium may run waiting input before timers: on a busy page (a 500-field
 * form re-rendering the pick-up) an arrow pressed at once came before the timer and was lost. This
 * listens at once, passes over the pick-up key, and hands each key to dnd-kit's handler once: the
 * handler dnd-kit adds in its timer is this same function, which the document does not add twice.
 */
import { KeyboardSensor, type KeyboardSensorProps } from '@dnd-kit/core'

export class PromptKeyboardSensor extends KeyboardSensor {
  constructor(props: KeyboardSensorProps) {
    super(props)
    // Private in dnd-kit's typings only; with a dnd-kit that keeps them otherwise, its own timing stays.
    const inside = this as unknown as {
      handleKeyDown?: (event: Event) => void
      listeners?: { add: (name: string, handler: (event: Event) => void) => void }
    }
    const handle = inside.handleKeyDown
    if (typeof handle !== 'function' || typeof inside.listeners?.add !== 'function') return
    const pickUp = props.event
    const onKey = (event: Event) => {
      if (event !== pickUp) handle(event)
    }
    inside.handleKeyDown = onKey
    inside.listeners.add('keydown', onKey)
  }
}
