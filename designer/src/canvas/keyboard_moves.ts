/**
 * Keyboard dragging: each arrow key jumps to the nearest drop place in that direction (dnd-kit's
 * default moves 25 px a press, which lands between places), so one press is one place on the canvas.
 */
import type { KeyboardCoordinateGetter, UniqueIdentifier } from '@dnd-kit/core'

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

/** How much two spans [start, start + size) share (0 when they only touch or are apart). */
const overlap = (a: number, aSize: number, b: number, bSize: number) =>
  Math.max(0, Math.min(a + aSize, b + bSize) - Math.max(a, b))

/**
 * The id of the box nearest to `from` (the place the drag is over) in `direction`. A box is that
 * way when its centre is past `from`'s edge on that side: a wide strip (a new row between rows)
 * whose centre lies a little to the right is not "to the right" of a card it touches. Boxes in
 * line with `from` (sharing part of its span across the direction) come first, so a press stays
 * in its row or column when it can; then the nearest ahead, then the nearest across.
 */
export function nearestInDirection<Id>(from: Box, direction: Direction, boxes: Iterable<[Id, Box]>): Id | undefined {
  const origin = center(from)
  const vertical = direction === 'up' || direction === 'down'
  let best: { id: Id; score: [number, number, number] } | undefined
  for (const [id, box] of boxes) {
    const c = center(box)
    const ahead =
      direction === 'down'
        ? c.y - (from.top + from.height)
        : direction === 'up'
          ? from.top - c.y
          : direction === 'right'
            ? c.x - (from.left + from.width)
            : from.left - c.x
    if (ahead <= 0) continue
    const inLine = vertical
      ? overlap(from.left, from.width, box.left, box.width) > 0
      : overlap(from.top, from.height, box.top, box.height) > 0
    const across = vertical ? Math.abs(c.x - origin.x) : Math.abs(c.y - origin.y)
    const score: [number, number, number] = [inLine ? 0 : 1, inLine ? ahead : ahead + 2 * across, across]
    if (!best || isLess(score, best.score)) best = { id, score }
  }
  return best?.id
}

const isLess = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!
  return false
}

/**
 * The places each keyboard drag (by the event that started it) was over and jumped to, in order.
 * Presses can come faster than dnd-kit's renders: while `over` is still one of the earlier places,
 * the next jump starts from the last one, so no press is lost. An `over` that is not on the way (the
 * drag landed elsewhere) is believed: the search starts from what the screen reader last said.
 */
const ways = new WeakMap<Event, UniqueIdentifier[]>()

/**
 * dnd-kit's coordinate getter on nearestInDirection: the dragged box's centre goes to the centre of
 * the next place, where closestCenter (the keyboard's collision detection) finds it.
 *
 * The search starts from the place the drag is over, not from the dragged box: that box is the
 * drag overlay, a label smaller than the card and pinned at its corner, so its centre sits a few
 * pixels off the place it starts over. Measured from it, the place already under the drag could be
 * "the nearest one ahead" (a field's own place, 10 px lower, on ArrowDown) and the press went
 * nowhere; on a page taller than the window dnd-kit turned that tiny move into a scroll, press after
 * press, so the drag never left.
 */
export const jumpToNearestPlace: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const direction = DIRECTIONS[event.code]
  const dragged = context.collisionRect
  if (!direction || !dragged) return undefined
  event.preventDefault()
  const started = context.activatorEvent
  const way = (started && ways.get(started)) || []
  const over = context.over?.id
  const stale = over !== undefined && way.slice(0, -1).includes(over) && context.droppableRects.has(way.at(-1)!)
  const overId = stale ? way.at(-1) : over
  const from = (overId !== undefined && context.droppableRects.get(overId)) || dragged
  const boxes: [UniqueIdentifier, Box][] = []
  for (const [id, rect] of context.droppableRects) {
    if (id === overId || context.droppableContainers.get(id)?.disabled) continue
    boxes.push([id, rect])
  }
  const id = nearestInDirection(from, direction, boxes)
  const target = id === undefined ? undefined : context.droppableRects.get(id)
  if (id === undefined || !target) return currentCoordinates
  if (started) ways.set(started, [...(stale ? way : overId === undefined ? [] : [overId]), id].slice(-30))
  const goal = center(target)
  const now = center(dragged)
  return { x: currentCoordinates.x + goal.x - now.x, y: currentCoordinates.y + goal.y - now.y }
}
