/**
 * The whole jsonconfig (spec 000 §3): form (display, body style, grid, pages), validations, fields and
 * elements. Fields and elements are checked here only for their common keys; each one is then checked
 * against its own type's schema from the field-type registry (see `configSchema` in registry.ts).
 */
import type { Static } from '@sinclair/typebox'
import * as Type from './type.js'
import { GRID_COLUMNS, PAGE_MAX_WIDTH } from '../constants.js'
import { Page } from './page.js'
import { Validations } from './validations.js'
import { DocumentTemplates } from '../documents.js'

export const BodyStyle = Type.Object(
  {
    maxwidth: Type.Number({ minimum: 1, default: PAGE_MAX_WIDTH }),
    background: Type.String({ default: '#f4f5f9' }),
    background_image: Type.String({ default: '' }),
  },
  { additionalProperties: false, default: {} }
)

export const FormSection = Type.Object(
  {
    /** 'wizard' shows one page at a time with the page bar; 'form' shows every page in one scroll. */
    display: Type.Union([Type.Literal('wizard'), Type.Literal('form')], { default: 'wizard' }),
    body: Type.Object({ style: BodyStyle }, { additionalProperties: false, default: {} }),
    grid: Type.Object(
      { columns: Type.Literal(GRID_COLUMNS, { default: GRID_COLUMNS }) },
      { additionalProperties: false, default: {} }
    ),
    pages: Type.Array(Page, { minItems: 1 }),
  },
  { additionalProperties: false }
)

/** Any field or element before its type's own schema is applied. */
export const LooseItem = Type.Object(
  {
    field_name: Type.String(),
    type: Type.String({ minLength: 1 }),
    data: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  },
  { additionalProperties: true }
)

export const FormConfigBase = Type.Object(
  {
    form: FormSection,
    validations: Validations,
    fields: Type.Array(LooseItem, { default: [] }),
    elements: Type.Array(LooseItem, { default: [] }),
    /** create_doc templates by name (documents.ts); optional, so older configs stay as they were. */
    documents: Type.Optional(DocumentTemplates),
  },
  { additionalProperties: false }
)

export type PageConfig = Static<typeof Page>
export type FormSectionConfig = Static<typeof FormSection>
export type ValidationsConfig = Static<typeof Validations>
