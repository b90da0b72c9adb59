/**
 * How a page is drawn (spec 000 §3 "Page"): the card's width per device, max width, margins, radius,
 * lateral paddings and look (background, opacity, blur, shadow, border), the background colour behind
 * it and a background image on the left, right, top, both sides or centered behind the page, taking
 * 1/proportion of the space (half on tablets). With `style_from_body` the form body's style (max width,
 * background colour and image) stands in for the page's own. The runtime's PageView and the designer's
 * canvas both draw from this, so a page looks the same in both. Pure: no DOM, styles as plain objects
 * with React's camelCase CSS names.
 */
import type { Static } from '@sinclair/typebox'
import type { Device } from './constants.js'
import { defaultsApplier } from './compiled-defaults.js'
import { BodyStyle, type PageConfig } from './schema/form.js'
import { Page } from './schema/page.js'
import { backgroundProportion, pageWidth } from './layout.js'

/** CSS properties by React's camelCase names; a property not set is absent (the stylesheet's applies). */
export type LookStyle = Record<string, string | number>

export type ImagePlacement = 'left' | 'right' | 'side' | 'top' | 'center'

export type BodyStyleConfig = Static<typeof BodyStyle>

export interface PageLook {
  /** The page itself. */
  card: LookStyle
  /** Around the card: the background colour and, centered, the image. */
  wrap: LookStyle
  /** The background image and where it goes; `box` styles each image box (not used when centered). */
  image?: { placement: ImagePlacement; box: LookStyle }
  /** A fixed page bar is asked for (the approve and see cases fix it anyway). */
  pagebar: boolean
}

/** Configs are JSON: a JSON round trip is a faithful deep copy. */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** A page as stored (keys may be missing) with the spec's defaults. */
export function pageWithDefaults(page: unknown): PageConfig {
  return defaultsApplier(Page)(clone(page ?? {})) as PageConfig
}

/** The form body's style as stored (keys may be missing) with the spec's defaults. */
export function bodyStyleWithDefaults(style: unknown): BodyStyleConfig {
  return defaultsApplier(BodyStyle)(clone(style ?? {})) as BodyStyleConfig
}

/** The look of a page (defaults applied) on a device; `body` is the form body's style (defaults applied). */
export function pageLook(page: PageConfig, body: BodyStyleConfig | undefined, device: Device): PageLook {
  const style = page.style
  const look = style.page_style
  const fromBody = page.style_from_body && body !== undefined
  const maxwidth = fromBody ? body.maxwidth : style.maxwidth
  const background = fromBody ? body.background : style.background
  const picture = fromBody ? body.background_image : style.background_image

  const card: LookStyle = {
    width: `${pageWidth(page, device)}%`,
    maxWidth: maxwidth,
    marginTop: style.margins.top,
    marginBottom: style.margins.bottom,
    borderRadius: style.borderRadius,
    background: look.background,
    opacity: look.opacity,
  }
  if (style.lateral_paddings) {
    card.paddingLeft = style.lateral_paddings
    card.paddingRight = style.lateral_paddings
  }
  if (!look.shadow) card.boxShadow = 'none'
  if (look.border) card.border = '1px solid var(--border)'
  if (look.blur_backdrop) card.backdropFilter = 'blur(8px)'

  const wrap: LookStyle = {}
  if (background) wrap.backgroundColor = background
  const result: PageLook = { card, wrap, pagebar: style.pagebar }
  if (!picture) return result

  // Encoded, so no quote or bracket in the address can end the CSS url().
  const backgroundImage = `url("${encodeURI(picture)}")`
  const share = 100 / backgroundProportion(page, device)
  // On a phone a side image would squeeze the form: it moves to the top.
  const placement: ImagePlacement = device === 'mobile' && style.type_page !== 'center' ? 'top' : style.type_page
  switch (placement) {
    case 'center':
      wrap.backgroundImage = backgroundImage
      result.image = { placement, box: {} }
      break
    case 'top':
      result.image = { placement, box: { backgroundImage, height: `${share * 2}vh` } }
      break
    default:
      result.image = { placement, box: { backgroundImage, flexBasis: `${share}%` } }
  }
  return result
}
