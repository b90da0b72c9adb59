/** A place something can be dropped on (a row's end, a new row between rows), lit while it is the target. */
import type { ReactNode } from 'react'
import { useDroppable } from '@dnd-kit/core'
import { dropId, type DropPlace } from './drops.js'

export function DropZone({
  place,
  className,
  children,
}: {
  place: DropPlace
  className: string
  children?: ReactNode
}) {
  const id = dropId(place)
  const { setNodeRef, isOver } = useDroppable({ id })
  return (
    <div ref={setNodeRef} className={isOver ? `${className} dzone--over` : className} data-drop={id}>
      {children}
    </div>
  )
}
