import { textColorFor } from '@tramita/contract/rules'
import type { StateInfo } from '../../lib/inbox.js'

/** A process state in its own colour, with readable text on it (spec 000 §9). */
export function StateBadge({ state }: { state: StateInfo }) {
  const style = state.color ? { background: state.color, color: textColorFor(state.color) } : undefined
  return (
    <span className="pill inbox__state" style={style} data-state={state.id}>
      {state.label}
    </span>
  )
}
