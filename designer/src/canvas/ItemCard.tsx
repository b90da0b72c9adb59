/**
 * A field or element on the canvas: its label and type at its width for the device. It is dragged
 * by itself (pointer or keyboard) and is the place "before this item" for what is dropped on it.
 */
import { useDraggable, useDroppable } from '@dnd-kit/core'
import { useTranslation } from 'react-i18next'
import type { Device } from '@tramita/contract'
import type { OutlineItem } from '../model/index.js'
import { dropId, itemDragId, type DropPlace } from './drops.js'

export function ItemCard(props: {
  item: OutlineItem
  /** The place before this item; none for an item on no page. */
  place?: DropPlace
  device: Device
  selected: boolean
  onSelect: (name: string, add: boolean) => void
}) {
  const { item, place, device, selected, onSelect } = props
  const { t } = useTranslation()
  const drag = useDraggable({ id: itemDragId(item.name) })
  const drop = useDroppable({ id: place ? dropId(place) : `none:${item.name}`, disabled: !place })
  const classes = ['ditem', !item.kind && 'ditem--missing', selected && 'ditem--selected']
  if (drag.isDragging) classes.push('ditem--dragging')
  if (drop.isOver) classes.push('dzone--over')
  return (
    <div
      ref={(node) => {
        drag.setNodeRef(node)
        drop.setNodeRef(node)
      }}
      className={classes.filter(Boolean).join(' ')}
      style={{ gridColumn: `span ${item.columns[device]}` }}
      data-testid="item"
      data-name={item.name}
      data-selected={selected}
      {...drag.attributes}
      {...drag.listeners}
      aria-pressed={selected}
      onClick={(event) => onSelect(item.name, event.shiftKey || event.ctrlKey || event.metaKey)}
    >
      <div className="ditem__label">{item.kind ? item.label || item.name : t('missing_item')}</div>
      <small className="muted">
        <code>{item.name}</code> · {item.type ?? '?'} · {item.columns[device]}/12
      </small>
    </div>
  )
}
