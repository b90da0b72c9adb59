/** A fieldset whose legend opens and closes it (a disclosure button), with optional actions beside it. */
import { useId, useState, type ReactNode } from 'react'

export interface CollapsibleProps {
  title: string
  defaultOpen?: boolean
  actions?: ReactNode
  className?: string
  children: ReactNode
}

export function Collapsible({ title, defaultOpen = true, actions, className, children }: CollapsibleProps) {
  const [open, setOpen] = useState(defaultOpen)
  const id = useId()
  return (
    <fieldset className={`panel-fieldset ${className ?? ''}`}>
      <legend>
        <button
          type="button"
          className="panel-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          {title}
        </button>
        {actions}
      </legend>
      <div id={id} className="panel-body" hidden={!open}>
        {children}
      </div>
    </fieldset>
  )
}
