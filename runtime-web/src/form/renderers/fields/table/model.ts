/**
 * The table's TanStack Table set-up, without React: the features it registers (search, sorting,
 * grouping, expansion of groups, pagination: only those, so the rest is tree-shaken), the records it
 * is fed (each row with its shown texts computed once, so neither scrolling nor searching formats a
 * cell again) and the column definitions. Unit tests build a table from these with constructTable.
 */
import {
  columnFilteringFeature,
  columnGroupingFeature,
  createExpandedRowModel,
  createFilteredRowModel,
  createGroupedRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  rowExpandingFeature,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type FilterFn,
  type Row as TableRow,
  type SortFn,
} from '@tanstack/react-table'
import {
  cellNumber,
  formulaFailureText,
  isComputed,
  rowIds,
  shownKind,
  showCell,
  type CellTexts,
  type Row,
  type ShownCell,
  type TableColumnConfig,
} from './cells.js'
import type { ScriptOutcome, TableScripts } from './formulas.js'
import { parseTableDate } from '@tramita/contract'
import { foldText } from '../../../../lib/text_search.js'

export const TABLE_FEATURES = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  rowSortingFeature,
  columnGroupingFeature,
  rowExpandingFeature,
  rowPaginationFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  groupedRowModel: createGroupedRowModel(),
  expandedRowModel: createExpandedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
})

export type Features = typeof TABLE_FEATURES

/** One row as the table shows it: its position in the value, its cells, and per column what shows. */
export interface TableRecord {
  /** Position in the field's value (edits and actions address the row by it). */
  index: number
  id: string
  row: Row
  /** The row's cells with formula columns replaced by their results (what sorting reads). */
  values: Row
  /** What each column shows, by column name. */
  shown: Record<string, ShownCell>
  /** The shown texts, lower case without accents, for the search. */
  folded: Record<string, string>
}

/** What a formula cell shows: its result, '0' or 'Error' when it failed, the missing variable's message. */
export function shownFormula(
  column: TableColumnConfig,
  outcome: ScriptOutcome | undefined,
  language: string,
  texts: CellTexts & { missing: (name: string) => string; computing: string }
): ShownCell {
  if (!outcome) return { text: texts.computing }
  if (!outcome.ok) {
    return outcome.reason === 'missing'
      ? { text: texts.missing(outcome.name), invalid: true }
      : { text: formulaFailureText(column), invalid: true }
  }
  const kind = shownKind(column)
  if (kind === 'number' && cellNumber(outcome.value) === null)
    return { text: formulaFailureText(column), invalid: true }
  return showCell(column, outcome.value, language, texts)
}

export function buildRecords(
  rows: readonly Row[],
  columns: readonly TableColumnConfig[],
  scripts: TableScripts | undefined,
  uniqueKey: string,
  language: string,
  texts: CellTexts & { missing: (name: string) => string; computing: string }
): TableRecord[] {
  const ids = rowIds(rows, uniqueKey)
  return rows.map((row, index) => {
    const values: Row = { ...row }
    const shown: Record<string, ShownCell> = {}
    const folded: Record<string, string> = {}
    for (const column of columns) {
      let cell: ShownCell
      if (column.type === 'buttons') cell = { text: '' }
      else if (isComputed(column)) {
        const outcome = scripts?.formulas.get(column.name)?.[index]
        values[column.name] = outcome?.ok ? outcome.value : null
        cell = shownFormula(column, outcome, language, texts)
      } else cell = showCell(column, row[column.name], language, texts)
      shown[column.name] = cell
      folded[column.name] = foldText(cell.text)
    }
    return { index, id: ids[index]!, row, values, shown, folded }
  })
}

const collators = new Map<string, Intl.Collator>()
function collator(language: string): Intl.Collator {
  let c = collators.get(language)
  if (!c) collators.set(language, (c = new Intl.Collator(language, { numeric: true, sensitivity: 'base' })))
  return c
}

/** Ascending order of one column's cells by what they are: numbers, date-times, booleans, then text. */
function comparer(column: TableColumnConfig, language: string): SortFn<Features, TableRecord> {
  const kind = shownKind(column)
  const name = column.name
  const blankLast = (a: unknown, b: unknown) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : undefined)
  switch (kind) {
    case 'number':
      return (a, b) => {
        const x = cellNumber(a.original.values[name])
        const y = cellNumber(b.original.values[name])
        return blankLast(x, y) ?? x! - y!
      }
    case 'date':
      return (a, b) => {
        const x = parseTableDate(a.original.values[name])
        const y = parseTableDate(b.original.values[name])
        return blankLast(x, y) ?? (x! < y! ? -1 : x! > y! ? 1 : 0)
      }
    default:
      return (a, b) => collator(language).compare(a.original.shown[name]!.text, b.original.shown[name]!.text)
  }
}

/** The search: a row matches when a searchable column's shown text contains the query (case and accents ignored). */
export const searchFilter: FilterFn<Features, TableRecord> = (row, columnId, query) => {
  const wanted = foldText(String(query ?? '').trim())
  return wanted === '' || (row.original.folded[columnId] ?? '').includes(wanted)
}

/**
 * A column per configured column (hidden ones too: a hidden column can still group), plus the groupBy
 * key when it names a cell no column shows. Cells are drawn by the renderer from the records.
 */
export function buildColumnDefs(
  columns: readonly TableColumnConfig[],
  groupBy: string,
  language: string
): ColumnDef<Features, TableRecord, unknown>[] {
  const defs: ColumnDef<Features, TableRecord, unknown>[] = columns.map((column) => ({
    id: column.name,
    accessorFn: (record: TableRecord) => record.values[column.name],
    enableSorting: column.sorteable && column.type !== 'buttons',
    enableGlobalFilter: column.filterable && column.show && column.type !== 'buttons',
    enableGrouping: column.type !== 'buttons',
    sortFn: comparer(column, language),
    // Groups gather rows that show the same: 'Sí' and true, or two spellings of one date.
    getGroupingValue: (record: TableRecord) => record.shown[column.name]?.text ?? '',
  }))
  if (groupBy !== '' && !columns.some((c) => c.name === groupBy)) {
    defs.push({
      id: groupBy,
      accessorFn: (record: TableRecord) => record.row[groupBy],
      enableSorting: false,
      enableGlobalFilter: false,
      getGroupingValue: (record: TableRecord) => {
        const v = record.row[groupBy]
        return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
      },
    })
  }
  return defs
}

/** Which columns the search looks in (TanStack's default guesses from the first row's value types). */
export function searchable(columns: readonly TableColumnConfig[]): ReadonlySet<string> {
  return new Set(columns.filter((c) => c.filterable && c.show && c.type !== 'buttons').map((c) => c.name))
}

/** The number of data rows under a group row (groups nest when grouping by more than one column). */
export function leafCount(row: TableRow<Features, TableRecord>): number {
  return row.subRows.reduce((n, sub) => n + (sub.subRows.length > 0 ? leafCount(sub) : 1), 0)
}
