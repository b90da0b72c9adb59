/** A yes/no key as a switch-like checkbox; several items that differ show it half-checked. */
import { useEffect, useRef } from 'react'
import type { LeafProps } from './leaf.js'
import { effectiveValue } from './values.js'

export function BooleanEditor({ node, shared, input, commit }: LeafProps) {
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = shared.mixed
  }, [shared.mixed])
  return (
    <input
      {...input}
      ref={box}
      type="checkbox"
      role="switch"
      checked={effectiveValue(node, shared.value) === true}
      onChange={(event) => commit(event.target.checked)}
    />
  )
}
