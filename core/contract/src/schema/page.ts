/**
 * A page of the form (spec 000 §3 "Page"). A page with `section: true` is a section: it is not
 * navigated to; a `section` element, the navbar or the lateral menu shows it by its `section_id`.
 */
import * as Type from './type.js'
import { BACKGROUND_PROPORTION, PAGE_MARGIN, PAGE_MAX_WIDTH, PAGE_RADIUS, PAGE_WIDTHS } from '../constants.js'

const Percent = (fallback: number) => Type.Number({ minimum: 1, maximum: 100, default: fallback })

export const PageStyle = Type.Object(
  {
    /** Where the background image sits: left, right, top, both sides (side) or centered behind the page. */
    type_page: Type.Union(
      [Type.Literal('center'), Type.Literal('left'), Type.Literal('right'), Type.Literal('top'), Type.Literal('side')],
      { default: 'center' }
    ),
    front_page: Type.Boolean({ default: false }),
    background: Type.String({ default: '' }),
    background_image: Type.String({ default: '' }),
    /** Share of the width (left/right/side) or height (top) the image takes, as 1/N; tablets use half. */
    background_proportion: Type.Number({ exclusiveMinimum: 0, default: BACKGROUND_PROPORTION }),
    lateral_paddings: Type.Number({ minimum: 0, default: 0 }),
    /** A fixed page bar; always fixed in the approve and see cases. */
    pagebar: Type.Boolean({ default: false }),
    page_style: Type.Object(
      {
        background: Type.String({ default: '#ffffff' }),
        opacity: Type.Number({ minimum: 0, maximum: 1, default: 1 }),
        blur_backdrop: Type.Boolean({ default: false }),
        shadow: Type.Boolean({ default: true }),
        border: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} }
    ),
    responsive: Type.Object(
      {
        mobile: Percent(PAGE_WIDTHS.mobile),
        tablet: Percent(PAGE_WIDTHS.tablet),
        computer: Percent(PAGE_WIDTHS.computer),
      },
      { additionalProperties: false, default: {} }
    ),
    margins: Type.Object(
      { top: Type.Number({ default: PAGE_MARGIN }), bottom: Type.Number({ default: PAGE_MARGIN }) },
      { additionalProperties: false, default: {} }
    ),
    maxwidth: Type.Number({ minimum: 1, default: PAGE_MAX_WIDTH }),
    borderRadius: Type.Number({ minimum: 0, default: PAGE_RADIUS }),
  },
  { additionalProperties: false, default: {} }
)

/** The navbar and lateral menu are built from named sections (a section page's `section_id`). */
export const AppInfo = Type.Object(
  {
    navbar: Type.Object(
      {
        enable: Type.Boolean({ default: false }),
        section: Type.String({ default: '' }),
        height: Type.Number({ default: 60 }),
      },
      { additionalProperties: false, default: {} }
    ),
    lateralMenu: Type.Object(
      {
        enable: Type.Boolean({ default: false }),
        section: Type.String({ default: '' }),
        width: Type.Number({ default: 250 }),
      },
      { additionalProperties: false, default: {} }
    ),
  },
  { additionalProperties: false, default: {} }
)

export const Page = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    section: Type.Boolean({ default: false }),
    section_id: Type.String({ default: '' }),
    /** Rows of field and element names, laid out on the 12-column grid. */
    layout: Type.Array(Type.Array(Type.String()), { default: [] }),
    /** Take the style from the form body instead of `style`. */
    style_from_body: Type.Boolean({ default: true }),
    style: PageStyle,
    app_info: AppInfo,
  },
  { additionalProperties: false }
)
