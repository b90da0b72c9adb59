/** The separate element (spec 000 §3): empty space as high as its height (45 by default). */
import type { ElementProps } from '../../types.js'

export function SeparateElement({ item }: ElementProps) {
  return <div className="media-separate" aria-hidden="true" style={{ height: item.data.height }} />
}
