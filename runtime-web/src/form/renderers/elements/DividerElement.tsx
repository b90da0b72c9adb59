/** The divider element (spec 000 §3): orientation h (a rule across), v (a rule down) or n (space only), in its colour. */
import type { ElementProps } from '../../types.js'
import '../fields/media/media.css'

export function DividerElement({ item }: ElementProps) {
  const orientation = item.data.orientation === 'v' || item.data.orientation === 'n' ? item.data.orientation : 'h'
  const color = typeof item.data.color === 'string' && item.data.color ? item.data.color : '#cccccc'
  if (orientation === 'n')
    return <div className="media-divider media-divider--none" aria-hidden="true" data-orientation="n" />
  return orientation === 'v' ? (
    <div
      className="media-divider media-divider--v"
      role="separator"
      aria-orientation="vertical"
      data-orientation="v"
      style={{ borderLeftColor: color, height: item.data.height }}
    />
  ) : (
    <hr className="media-divider media-divider--h" data-orientation="h" style={{ borderTopColor: color }} />
  )
}
