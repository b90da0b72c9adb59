/**
 * An icon per field and element type, for the palette: inline SVG paths on a 24-unit grid, drawn
 * with the current colour (no icon library: these few shapes are all the designer needs). A type
 * without its own icon (a plugin's) gets the generic one.
 */
import type { ItemKind } from '@tramita/contract'

const circle = (x: number, y: number, r: number) =>
  `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`
const rect = (x: number, y: number, w: number, h: number, r = 2) =>
  `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}z`

const text = 'M4 7V4h16v3M9 20h6M12 4v16'
const image = `${rect(3, 3, 18, 18)}${circle(9, 9, 2)}m12 6-5-5L5 21`

const FIELDS: Record<string, string> = {
  text,
  number: 'M4 9h16M4 15h16M10 3 8 21M16 3l-2 18',
  textarea: 'M4 6h16M4 10h16M4 14h16M4 18h10',
  celular: `${rect(7, 2, 10, 20)}M11 18h2`,
  select: `${rect(3, 5, 18, 14)}m6 6 3 3 3-3`,
  list: 'M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01',
  radios: `${circle(6, 7, 2)}${circle(6, 17, 2)}M11 7h9M11 17h9`,
  date: `${rect(3, 4, 18, 18)}M16 2v4M8 2v4M3 10h18`,
  time: `${circle(12, 12, 10)}M12 6v6l4 2`,
  image,
  signature: 'M3 20c3-1 4-4 6-4s2 3 4 3 3-2 5-2M14 4l4 4-8 8H6v-4z',
  level: 'M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6',
  tramita: 'M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7',
  checkbox: `${rect(3, 3, 18, 18)}m5 9 3 3 5-6`,
  radio: `${circle(12, 12, 9)}${circle(12, 12, 3)}`,
  switch: `${rect(2, 7, 20, 10, 5)}${circle(16, 12, 3)}`,
  table: `${rect(3, 3, 18, 18)}M3 9h18M3 15h18M12 3v18`,
  repeat: `${rect(3, 3, 18, 6)}${rect(3, 11, 12, 6)}M19 14v6M16 17h6`,
  email: `${rect(2, 4, 20, 16)}m20 3-10 6L2 7`,
  money: 'M12 2v20M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  areas: `${rect(4, 2, 16, 20, 1)}M9 22v-4h6v4M8 6h.01M12 6h.01M16 6h.01M8 10h.01M12 10h.01M16 10h.01M8 14h.01M12 14h.01M16 14h.01`,
  roles: 'M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z',
  users: `${circle(9, 7, 4)}M2 21v-2a4 4 0 0 1 4-4h6a4 4 0 0 1 4 4v2M16 3.1a4 4 0 0 1 0 7.8M22 21v-2a4 4 0 0 0-3-3.9`,
  machines: `${rect(2, 3, 20, 14)}M8 21h8M12 17v4`,
  var: 'M8 3H7a2 2 0 0 0-2 2v5a2 2 0 0 1-2 2 2 2 0 0 1 2 2v5a2 2 0 0 0 2 2h1M16 21h1a2 2 0 0 0 2-2v-5a2 2 0 0 1 2-2 2 2 0 0 1-2-2V5a2 2 0 0 0-2-2h-1',
}

const ELEMENTS: Record<string, string> = {
  divider: 'M3 12h18',
  separate: 'M12 4v16M8 8l4-4 4 4M8 16l4 4 4-4',
  text: 'M4 6h16M4 12h10M4 18h14',
  image,
  send: 'M22 2 11 13M22 2l-7 20-4-9-9-4z',
  html: 'm16 18 6-6-6-6M8 6l-6 6 6 6',
  button: `${rect(3, 7, 18, 10, 3)}M8 12h8`,
  section: `${rect(3, 3, 18, 18)}M3 9h18`,
  save: 'M19 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h11l5 5v11a2 2 0 0 1-2 2zM17 21v-8H7v8M7 3v5h8',
}

/** A plugin's type: a box. */
const GENERIC = 'M21 8 12 3 3 8v8l9 5 9-5zM3 8l9 5 9-5M12 13v8'

export function TypeIcon({ kind, type }: { kind: ItemKind; type: string }) {
  const d = (kind === 'element' ? ELEMENTS : FIELDS)[type] ?? GENERIC
  return (
    <svg
      className="type-icon"
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-icon={(kind === 'element' ? ELEMENTS : FIELDS)[type] ? type : 'generic'}
    >
      <path d={d} />
    </svg>
  )
}
