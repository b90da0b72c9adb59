/** table (spec 000 §3, 001 §3): columns, buttons, pagination, grouping, child rows, head buttons. */
import * as Type from '../schema/type.js'
import { Translatable } from '../schema/translatable.js'
import { defineFieldType } from '../registry.js'
import { contractText } from '../messages.js'
import { passesRequired } from '../rules/index.js'
import { TABLE_PAGE_OPTIONS, TABLE_PAGE_SIZE } from '../constants.js'
import { Script } from '../schema/common.js'
import { serialise } from './shared.js'

export const COLUMN_TYPES = ['text', 'number', 'boolean', 'date', 'formule', 'buttons'] as const

/** A button in a buttons column or in the head: runs `action` when its condition (`formule`) holds. */
export const TableButton = Type.Object(
  {
    action: Type.String({ default: '' }),
    formule: Script,
    icon: Type.String({ default: '' }),
    text: Translatable({ default: '' }),
    text_error: Translatable({ default: '' }),
    background: Type.String({ default: '' }),
    color: Type.String({ default: '' }),
  },
  { additionalProperties: false }
)

/** How a boolean (or a condition) shows: text, colour and icon for true and for false. */
const DisplayRule = Type.Object(
  { text: Translatable({ default: '' }), color: Type.String({ default: '' }), icon: Type.String({ default: '' }) },
  { additionalProperties: false, default: {} }
)

export const TableColumn = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    label: Translatable({ default: '' }),
    show: Type.Boolean({ default: true }),
    editable: Type.Boolean({ default: false }),
    sorteable: Type.Boolean({ default: true }),
    filterable: Type.Boolean({ default: true }),
    type: Type.Union(
      COLUMN_TYPES.map((t) => Type.Literal(t)),
      { default: 'text' }
    ),
    mask: Type.String({ default: '' }),
    format: Type.String({ default: '' }),
    output: Type.String({ default: '' }),
    display: Type.Object({ true: DisplayRule, false: DisplayRule }, { additionalProperties: false, default: {} }),
    fontsize: Type.Number({ minimum: 1, default: 14 }),
    bold: Type.Boolean({ default: false }),
    /** Formula of a formule column, run per row in the sandbox with the row's cells as variables. */
    formule: Script,
    buttons: Type.Array(TableButton, { default: [] }),
  },
  { additionalProperties: false }
)

export const TableSettings = Type.Object(
  {
    columns: Type.Array(TableColumn, { default: [] }),
    search_show: Type.Boolean({ default: true }),
    pagination: Type.Object(
      {
        start: Type.Integer({ minimum: 1, default: TABLE_PAGE_SIZE }),
        size: Type.Integer({ minimum: 1, default: TABLE_PAGE_SIZE }),
        showBar: Type.Boolean({ default: true }),
        showSelect: Type.Boolean({ default: true }),
        selectOptions: Type.String({ default: TABLE_PAGE_OPTIONS }),
      },
      { additionalProperties: false, default: {} }
    ),
    groupBy: Type.String({ default: '' }),
    uniqueKey: Type.String({ default: 'id' }),
    /** Markdown with ${column} placeholders shown under an expanded row; '' for none. */
    child_row: Type.String({ default: '' }),
    headButtons: Type.Array(TableButton, { default: [] }),
    header_background: Type.String({ default: '#1C1066' }),
    header_color: Type.String({ default: '#ffffff' }),
  },
  { additionalProperties: false, default: {} }
)

export const tableType = defineFieldType({
  type: 'table',
  ref: { table: TableSettings },
  value: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  defaultValue: () => [],
  stored: (_item, rows, ctx) => ({
    value_replace: rows.length ? contractText(ctx, 'table_rows', { count: rows.length }) : '',
    value_simple: serialise(rows),
  }),
  required: (_item, value) => passesRequired('table', value),
})
