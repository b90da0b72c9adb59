/**
 * One row of the 12-column grid: its items at their width for the device, a drop place at its end,
 * and its tools: move up or down, add a row below, delete it when it is empty (a row with items goes
 * when its items are moved or deleted, so no field is lost by deleting a row).
 */
import { useTranslation } from 'react-i18next'
import type { Device } from '@tramita/contract'
import { addRow, deleteRow, moveRow, type OutlineItem } from '../model/index.js'
import { DropZone } from './DropZone.js'
import { ItemCard } from './ItemCard.js'
import type { Design } from './use_design.js'

export function CanvasRow(props: {
  design: Design
  page: number
  row: number
  /** How many rows the page has (the last cannot move down). */
  rows?: number
  items: OutlineItem[]
  device: Device
}) {
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
      {props.rows !== undefined && (
        <RowTools design={design} page={page} row={row} rows={props.rows} empty={items.length === 0} />
      )}
    </div>
  )
}

/** Focuses a row tool after the rows re-render (rows are keyed by place: focus follows the row moved). */
function focusTool(page: number, row: number, tool: string) {
  requestAnimationFrame(() => {
    const tools = document.querySelector(`[data-testid="page"][data-page="${page}"] [data-row="${row}"] .drow__tools`)
    const wanted = tools?.querySelector<HTMLButtonElement>(`[data-tool="${tool}"]:not(:disabled)`)
    ;(wanted ?? tools?.querySelector<HTMLButtonElement>('button:not(:disabled)'))?.focus()
  })
}

function RowTools(props: { design: Design; page: number; row: number; rows: number; empty: boolean }) {
  const { design, page, row, rows, empty } = props
  const { t } = useTranslation()
  const n = row + 1
  const move = (to: number, tool: string) => {
    if (design.run(moveRow(page, row, to))) focusTool(page, to, tool)
  }
  return (
    <div className="drow__tools" role="group" aria-label={t('row_tools', { n })}>
      <button
        type="button"
        data-tool="up"
        disabled={row === 0}
        aria-label={t('row_up', { n })}
        title={t('row_up', { n })}
        onClick={() => move(row - 1, 'up')}
      >
        ↑
      </button>
      <button
        type="button"
        data-tool="down"
        disabled={row === rows - 1}
        aria-label={t('row_down', { n })}
        title={t('row_down', { n })}
        onClick={() => move(row + 1, 'down')}
      >
        ↓
      </button>
      <button
        type="button"
        data-tool="add"
        aria-label={t('row_add_below', { n })}
        title={t('row_add_below', { n })}
        onClick={() => design.run(addRow(page, row + 1)) && focusTool(page, row + 1, 'add')}
      >
        +
      </button>
      {empty && (
        <button
          type="button"
          data-tool="delete"
          aria-label={t('row_delete', { n })}
          title={t('row_delete', { n })}
          onClick={() => design.run(deleteRow(page, row)) && focusTool(page, Math.max(0, row - 1), 'add')}
        >
          ✕
        </button>
      )}
    </div>
  )
}
