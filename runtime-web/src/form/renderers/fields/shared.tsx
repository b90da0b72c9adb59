/**
 * What the field renderers share: the control's box from the item's design (height 45, radius 5 and
 * the border by default, spec 000 §9), aria-describedby wiring, the event scripts on DOM events, the
 * hint lines under a control and a local draft that follows the stored value.
 */
import { useState, type CSSProperties, type FocusEvent, type MouseEvent, type ReactNode } from 'react'
import { FIELD_RADIUS, INPUT_HEIGHT, type EventName, type FormItem } from '@tramita/contract'

/** The box of a text-like control: the item's height (a minimum), radius and border. */
export function controlStyle(item: FormItem): CSSProperties {
  const design = item.data.design
  const border = design?.border
  return {
    minHeight: Number(item.data.height) || INPUT_HEIGHT,
    borderRadius: design?.radius ?? FIELD_RADIUS,
    ...(border ? { borderWidth: border.width, borderStyle: border.style, borderColor: border.color || undefined } : {}),
  }
}

/** aria-describedby of a control: the shell's description (when the item has one) and the given hint ids. */
export function describedBy(inputId: string, item: FormItem, ...ids: (string | false | null | undefined)[]) {
  const all = [item.data.label.description ? `${inputId}-description` : '', ...ids].filter(Boolean)
  return all.length > 0 ? all.join(' ') : undefined
}

type Handler<E> = (event: E) => void

export interface OwnHandlers {
  onFocus?: Handler<FocusEvent<HTMLElement>>
  onBlur?: Handler<FocusEvent<HTMLElement>>
}

/**
 * DOM handlers that run the item's event scripts (spec 000 §3: on_focus, on_blur, on_click,
 * on_double_click, on_context_menu, on_key_down, on_mouse_enter, on_mouse_leave). Focus moving inside
 * the element (between a group's radios) is neither a blur nor a focus of the field.
 */
export function domEvents(onEvent: (event: EventName) => void, own: OwnHandlers = {}) {
  const leaves = (event: FocusEvent<HTMLElement>) => !event.currentTarget.contains(event.relatedTarget as Node | null)
  return {
    onFocus(event: FocusEvent<HTMLElement>) {
      if (!leaves(event)) return
      own.onFocus?.(event)
      onEvent('on_focus')
    },
    onBlur(event: FocusEvent<HTMLElement>) {
      if (!leaves(event)) return
      own.onBlur?.(event)
      onEvent('on_blur')
    },
    onClick(event: MouseEvent<HTMLElement>) {
      // A click on a label is repeated by the browser on its control: counted once, there.
      const label = (event.target as Element).closest?.('label')
      if (label?.control && label.control !== event.target) return
      onEvent('on_click')
    },
    onDoubleClick: () => onEvent('on_double_click'),
    onContextMenu: () => onEvent('on_context_menu'),
    onKeyDown: () => onEvent('on_key_down'),
    onMouseEnter: () => onEvent('on_mouse_enter'),
    onMouseLeave: () => onEvent('on_mouse_leave'),
  }
}

/**
 * Text shown in a control that may differ from the stored value (a half-typed number, an invalid
 * pattern kept visible). `emit` stores a value without resetting the draft; a value changed from
 * outside (a script, a preset, the redo reset) replaces the draft.
 */
export function useDraft<V, D = string>(value: V, onChange: (value: V) => void, toDraft: (value: V) => D) {
  const [draft, setDraft] = useState<D>(() => toDraft(value))
  const [known, setKnown] = useState<V>(value)
  if (!Object.is(known, value)) {
    setKnown(value)
    setDraft(toDraft(value))
  }
  const emit = (next: V) => {
    setKnown(next)
    onChange(next)
  }
  return { draft, setDraft, emit }
}

/** One line under a control (hint, counter, error), referenced by aria-describedby through its id. */
export function Hint({
  id,
  tone = 'muted',
  live,
  children,
}: {
  id: string
  tone?: 'muted' | 'error'
  live?: boolean
  children: ReactNode
}) {
  return (
    <span id={id} className={`fhint fhint--${tone}`} aria-live={live ? 'polite' : undefined}>
      {children}
    </span>
  )
}

/** Text for a stored value that should be a string (old data may hold numbers or null). */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
