/**
 * Keyboard dragging: each arrow key jumps to the nearest drop place in that direction (dnd-kit's
 * default moves 25 px a press, which lands between places), so one press is one place on the canvas.
 */
import type { KeyboardCoordinateGetter } from '@dnd-kit/core'

export interface Box {
  left: number
  top: number
  width: number
  height: number
}

export type Direction = 'up' | 'down' | 'left' | 'right'

const DIRECTIONS: Record<string, Direction> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
}

const center = (box: Box) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 })

/**
 * The id of the box nearest to `from` (a point) in `direction`: ahead by more than 2 px along the
 * direction, the distance across it counting double so a press stays in its line when it can.
 */
export function nearestInDirection<Id>(
  from: { x: number; y: number },
  direction: Direction,
  boxes: Iterable<[Id, Box]>
): Id | undefined {
  let best: { id: Id; score: number } | undefined
  for (const [id, box] of boxes) {
    const c = center(box)
    const dx = c.x - from.x
    const dy = c.y - from.y
    const [ahead, across] =
      direction === 'down' ? [dy, dx] : direction === 'up' ? [-dy, dx] : direction === 'right' ? [dx, dy] : [-dx, dy]
    if (ahead <= 2) continue
    const score = ahead + 2 * Math.abs(across)
    if (!best || score < best.score) best = { id, score }
  }
  return best?.id
}

/** dnd-kit's coordinate getter on nearestInDirection: the dragged box's centre goes to the place's. */
export const jumpToNearestPlace: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const direction = DIRECTIONS[event.code]
  const dragged = context.collisionRect
  if (!direction || !dragged) return undefined
  event.preventDefault()
  const boxes: [string, Box][] = []
  for (const [id, rect] of context.droppableRects) {
    if (context.droppableContainers.get(id)?.disabled) continue
    boxes.push([String(id), rect])
  }
  const id = nearestInDirection(center(dragged), direction, boxes)
  const target = id === undefined ? undefined : context.droppableRects.get(id)
  if (!target) return currentCoordinates
  const goal = center(target)
  const now = center(dragged)
  return { x: currentCoordinates.x + goal.x - now.x, y: currentCoordinates.y + goal.y - now.y }
}
