/**
 * dnd-kit's pointer sensor (6.3.1), except that after a drop it swallows only the click the drop
 * itself makes, not the next click the person makes.
 *
 * While a pointer drag is active, dnd-kit stops every click in the document's capture phase (so the
 * button release that ends a drag does not also click what is under it), and when the drag ends it
 * keeps doing so for 50 ms more (`setTimeout(removeAll, 50)` in its detach). A click within those
 * 50 ms (a quick person, a test, the undo button right after a drop) never reaches React and is
 * lost. The drop's own click comes with the release, before any new press; so the stopper goes when
 * the next press (pointer or key) begins, and at the latest when dnd-kit's 50 ms are over. (A timer
 * of 0 ms is not enough: Chromium may run waiting input before timers.)
 */
import { PointerSensor, type PointerSensorProps } from '@dnd-kit/core'

export class DropClickPointerSensor extends PointerSensor {
  constructor(props: PointerSensorProps) {
    super(props)
    // Private in dnd-kit's typings only; with a dnd-kit that keeps them otherwise, its own timing stays.
    const inside = this as unknown as { detach?: () => void; documentListeners?: { removeAll: () => void } }
    const detach = inside.detach
    const listeners = inside.documentListeners
    if (typeof detach !== 'function' || typeof listeners?.removeAll !== 'function') return
    const target = props.event.target
    const doc = target instanceof Node && target.ownerDocument ? target.ownerDocument : document
    inside.detach = () => {
      detach.call(this)
      const release = () => {
        listeners.removeAll()
        for (const name of NEXT_PRESS) doc.removeEventListener(name, release, true)
      }
      for (const name of NEXT_PRESS) doc.addEventListener(name, release, true)
      setTimeout(release, 50)
    }
  }
}

const NEXT_PRESS = ['pointerdown', 'keydown'] as const
