/** One row of the 12-column grid: its items at their width for the device, and a drop place at its end. */
import type { Device } from '@tramita/contract'
import type { OutlineItem } from '../model/index.js'
import { DropZone } from './DropZone.js'
import { ItemCard } from './ItemCard.js'
import type { Design } from './use_design.js'

export function CanvasRow(props: { design: Design; page: number; row: number; items: OutlineItem[]; device: Device }) {
  const { design, page, row, items, device } = props
  return (
    <div className="drow" data-testid="row" data-row={row}>
      <div className="drow__grid">
        {items.map((item, column) => (
          <ItemCard
            key={item.name}
            item={item}
            place={{ at: 'slot', page, row, column }}
            device={device}
            selected={design.selection.includes(item.name)}
            onSelect={design.select}
          />
        ))}
      </div>
      <DropZone place={{ at: 'slot', page, row, column: items.length }} className="dzone dzone--end" />
    </div>
  )
}
