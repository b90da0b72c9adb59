/**
 * Business constants of the form contract (spec 000 §9, 001 §9). Schema defaults are written with
 * these names, so a constant changes in one place.
 */
export const GRID_COLUMNS = 12
/** Field width in grid columns; -1 is the full row. */
export const FULL_WIDTH = -1
export const DEFAULT_SPACE = 1
export const INPUT_HEIGHT = 45
export const IMAGE_HEIGHT = 180
export const SIGNATURE_HEIGHT = 200
export const FILE_ZONE_HEIGHT = 90
export const LEVEL_HEIGHT = 45
export const LEVEL_STARS = 5
export const FONT_SIZE = 16
export const FIELD_RADIUS = 5

/** Device breakpoints: up to 767 px mobile, 768 to 1024 tablet, wider is a computer; 600 px is also a mobile threshold. */
export const BREAKPOINTS = { mobile: 767, tablet: 1024, narrow: 600 } as const
export const DEVICES = ['mobile', 'tablet', 'computer'] as const
export type Device = (typeof DEVICES)[number]

/** Page width in percent of the viewport per device, max width in px, margins, radius, background proportion. */
export const PAGE_WIDTHS = { mobile: 100, tablet: 90, computer: 70 } as const
export const PAGE_MAX_WIDTH = 800
export const PAGE_MARGIN = 50
export const PAGE_RADIUS = 10
export const BACKGROUND_PROPORTION = 4

export const MONEY_DEFAULTS = { locate: 'es-CO', currency: 'COP', type_display: 'symbol' } as const
export const DECIMALS_SIGNIFICANT = 2
export const PHONE_COUNTRY = 'CO'

export const TABLE_PAGE_SIZE = 10
export const TABLE_PAGE_OPTIONS = '10,20,30'

export const BUTTON_COLOR = '#1C1066'
export const PROGRESS_BAR_COLOR = '#7f82ff'

/** The heading of the missing-required list in the runtime (spec 000 §2, kept verbatim). */
export const MISSING_REQUIRED_HEADING = 'No se han diligenciado lo siguientes campos obligatorios:'

/** Which device a window width falls in. */
export function deviceForWidth(width: number): Device {
  if (width <= BREAKPOINTS.mobile) return 'mobile'
  if (width <= BREAKPOINTS.tablet) return 'tablet'
  return 'computer'
}
