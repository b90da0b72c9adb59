import type { ReactNode } from 'react'
import { textColorFor } from '@tramita/contract/rules'

/** A label on its colour; the text is black or white by the spec's luminance rule (000 §9). */
export function ColorChip({ color, children, className }: { color?: string; children: ReactNode; className?: string }) {
  const style = color ? { background: color, color: textColorFor(color) } : undefined
  return (
    <span
      className={`consult-chip${color ? '' : ' consult-chip--plain'}${className ? ` ${className}` : ''}`}
      style={style}
    >
      {children}
    </span>
  )
}
