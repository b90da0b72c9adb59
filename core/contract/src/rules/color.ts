/**
 * The spec's text-colour rule (000 §9, 001 §9): text is black when the background's relative
 * luminance is above 0.179, otherwise white. Pure, so it runs in the browser and in unit tests.
 */

/** Default button and save-button colour (spec 000 §3, §9). */
export const PRIMARY_COLOR = '#1C1066'
/** Relative luminance above which text is black (spec 000 §9, 001 §9). */
export const LUMINANCE_THRESHOLD = 0.179

export type Rgb = [number, number, number]

/** Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` and `rgb()`/`rgba()`; null when it cannot. */
export function parseColor(input: string): Rgb | null {
  const value = input.trim().toLowerCase()
  const hex = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)
  if (hex) {
    let digits = hex[1]!
    if (digits.length <= 4) digits = [...digits].map((d) => d + d).join('')
    return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*[\d.]+%?)?\s*\)$/.exec(value)
  if (fn) {
    const channels = [fn[1], fn[2], fn[3]].map((c) => Math.min(255, Math.max(0, Math.round(Number(c)))))
    return channels as Rgb
  }
  return null
}

/** WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** Black or white text for a background colour (spec 000 §9, 001 §9); an unreadable colour is treated as light (black text). */
export function textColorFor(bg: string): '#000000' | '#ffffff' {
  const rgb = parseColor(bg)
  if (!rgb) return '#000000'
  return luminance(rgb) > LUMINANCE_THRESHOLD ? '#000000' : '#ffffff'
}
