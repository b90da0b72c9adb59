/** The value a colour picker can show (#rrggbb) for a stored CSS colour; black for what it cannot. */
export function pickerColour(value: unknown): string {
  if (typeof value !== 'string') return '#000000'
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value)
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
  return /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : '#000000'
}
