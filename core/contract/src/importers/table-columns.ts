/** Table columns built from the sources' repeated groups (Form.io data grids, SurveyJS matrices). */
import { NameAllocator } from './names.js'
import type { Json } from './types.js'

export type ColumnType = 'text' | 'number' | 'boolean' | 'date' | 'formule'

/** Collects columns with unique names; cells are editable unless computed. */
export class Columns {
  readonly list: Json[] = []
  private readonly names = new NameAllocator()

  add(sourceName: string, label: string, type: ColumnType, extra: Json = {}): string {
    const name = this.names.allocate(sourceName, 'column')
    this.list.push({ name, label, type, editable: type !== 'formule', ...extra })
    return name
  }
}

/** A table field's data with these columns. */
export const tableData = (columns: Columns): Json => ({ ref: { table: { columns: columns.list } } })
