/**
 * Widths on the 12-column grid per device. The runtime (runtime-web/src/form/grid.ts) reads an item's
 * columns from `data.design.responsive[device]`, and on a computer a positive `data.width` narrows it
 * further; a resize writes both so the runtime shows what the designer drew. columnsOf is the same
 * rule for the canvas (a test holds the two together until the rule moves into the contract).
 */
import { GRID_COLUMNS, type Device, type FormItem } from '@tramita/contract'
import { edit, requireItem, type Command } from './document.js'
import { setIn } from './paths.js'

/** Columns an item (with its defaults applied) takes on a device, 1 to 12. */
export function columnsOf(item: FormItem, device: Device): number {
  const responsive = Number(item.data.design.responsive[device]) || GRID_COLUMNS
  const width = Number(item.data.width)
  const columns = device === 'computer' && width > 0 ? Math.min(width, responsive) : responsive
  return Math.max(1, Math.min(GRID_COLUMNS, Math.round(columns)))
}

/** Sets the columns several items take on a device (rounded into 1..12). */
export function resizeItems(names: readonly string[], device: Device, columns: number): Command {
  if (!Number.isFinite(columns)) throw new RangeError(`Not a width: ${columns}`)
  const size = Math.max(1, Math.min(GRID_COLUMNS, Math.round(columns)))
  return edit((doc) => {
    for (const name of names) {
      const { item } = requireItem(doc.jsonconfig, name)
      setIn(item, ['data', 'design', 'responsive', device], size)
      // The older `width` key would cap the computer's columns: it follows, or it would undo the resize.
      if (device === 'computer' && Number(item.data?.width) > 0) setIn(item, ['data', 'width'], size)
    }
  })
}

export function resizeItem(name: string, device: Device, columns: number): Command {
  return resizeItems([name], device, columns)
}
