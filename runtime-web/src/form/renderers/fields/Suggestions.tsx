/**
 * The popup list of a combobox (ARIA 1.2 pattern): the input keeps focus, arrows move the active
 * option, Enter picks it, Escape closes. Used by the text field's autocomplete and the people pickers.
 */
import { useState, type KeyboardEvent, type ReactNode } from 'react'

export interface SuggestionItem {
  key: string
  label: ReactNode
}

export interface Combobox {
  open: boolean
  active: number
  /** Attributes for the input (role combobox and its links to the list). */
  inputProps: {
    role: 'combobox'
    'aria-expanded': boolean
    'aria-controls': string
    'aria-autocomplete': 'list'
    'aria-activedescendant': string | undefined
  }
  onKeyDown(event: KeyboardEvent<HTMLElement>): void
  show(): void
  hide(): void
}

/** State of a combobox over `count` options; `pick` receives the index chosen by keyboard. */
export function useCombobox(listId: string, count: number, pick: (index: number) => void): Combobox {
  const [shown, setShown] = useState(false)
  const [active, setActive] = useState(-1)
  const open = shown && count > 0
  const current = active < count ? active : -1
  return {
    open,
    active: current,
    inputProps: {
      role: 'combobox',
      'aria-expanded': open,
      'aria-controls': listId,
      'aria-autocomplete': 'list',
      'aria-activedescendant': open && current >= 0 ? `${listId}-${current}` : undefined,
    },
    onKeyDown(event) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        if (!open) {
          setShown(true)
          setActive(event.key === 'ArrowDown' ? 0 : count - 1)
          return
        }
        // Wraps around at both ends.
        if (event.key === 'ArrowDown') setActive(current + 1 >= count ? 0 : current + 1)
        else setActive(current <= 0 ? count - 1 : current - 1)
      } else if (event.key === 'Enter' && open && current >= 0) {
        event.preventDefault()
        pick(current)
        setActive(-1)
      } else if (event.key === 'Escape' && open) {
        event.preventDefault()
        setShown(false)
        setActive(-1)
      }
    },
    show() {
      setShown(true)
    },
    hide() {
      setShown(false)
      setActive(-1)
    },
  }
}

export function SuggestionList({
  id,
  label,
  items,
  combobox,
  onPick,
}: {
  id: string
  label: string
  items: SuggestionItem[]
  combobox: Combobox
  onPick(index: number): void
}) {
  if (!combobox.open) return null
  return (
    <ul className="fsuggest" id={id} role="listbox" aria-label={label}>
      {items.map((item, index) => (
        <li
          key={item.key}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === combobox.active}
          className={`fsuggest__item${index === combobox.active ? ' fsuggest__item--active' : ''}`}
          // mousedown, not click: the input must keep focus (a blur would close the list first).
          onMouseDown={(event) => {
            event.preventDefault()
            onPick(index)
          }}
        >
          {item.label}
        </li>
      ))}
    </ul>
  )
}
