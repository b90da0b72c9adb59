/** The 12-column grid (spec 000 §3, §9): how many columns an item takes on a device. */
import { GRID_COLUMNS, type Device, type FormItem } from '@tramita/contract'

/**
 * The item's design for the device decides; on a computer a positive `width` narrows it further
 * (width -1 is the full row). Always between 1 and 12.
 */
export function columnsFor(item: FormItem, device: Device): number {
  const responsive = Number(item.data.design.responsive[device]) || GRID_COLUMNS
  const width = Number(item.data.width)
  const columns = device === 'computer' && width > 0 ? Math.min(width, responsive) : responsive
  return Math.max(1, Math.min(GRID_COLUMNS, Math.round(columns)))
}
