/**
 * level (spec 000 §3): a rating of 5 stars by default, -1 while unset. Each level's shape comes from
 * body.shape {label, symbol, color} (the default star otherwise); fill colours every level up to the
 * chosen one (otherwise only the chosen one); withoutcolor draws the chosen levels in the text colour.
 * Keyboard: a radio group with one tab stop; the arrows, Home and End choose (WAI-ARIA radio group).
 */
import './fields.css'
import { useRef, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { LEVEL_HEIGHT, LEVEL_STARS } from '@tramita/contract'
import type { FieldProps } from '../../types.js'
import { describedBy, domEvents } from './shared.js'

interface Shape {
  label?: string
  symbol?: string
  color?: string
}

const DEFAULT_SHAPE = { label: '', symbol: '★', color: '#f5b301' }

export function LevelField({ item, value, onChange, onEvent, readOnly, disabled, inputId }: FieldProps<number>) {
  const { t } = useTranslation()
  const count = Math.max(1, Math.min(10, Number(item.data.levels) || LEVEL_STARS))
  const shapes: Shape[] = Array.isArray(item.data.body?.shape) ? item.data.body.shape : []
  const fill = item.data.fill !== false
  const plain = item.data.withoutcolor === true
  const height = Number(item.data.height) || LEVEL_HEIGHT
  const chosen = typeof value === 'number' && value >= 1 ? Math.min(value, count) : -1
  const stars = useRef<(HTMLSpanElement | null)[]>([])
  const events = domEvents(onEvent)
  const locked = readOnly || disabled

  const choose = (level: number, focus = false) => {
    if (locked) return
    if (focus) stars.current[level - 1]?.focus()
    if (level === chosen) return
    onChange(level)
    onEvent('on_change')
  }
  const onKeyDown = (event: KeyboardEvent<HTMLElement>, level: number) => {
    const moves: Record<string, number> = {
      ArrowRight: Math.min(count, (chosen < 1 ? 0 : chosen) + 1),
      ArrowUp: Math.min(count, (chosen < 1 ? 0 : chosen) + 1),
      ArrowLeft: Math.max(1, chosen - 1),
      ArrowDown: Math.max(1, chosen - 1),
      Home: 1,
      End: count,
    }
    if (event.key in moves) {
      event.preventDefault()
      choose(moves[event.key]!, true)
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault()
      choose(level)
    }
    // on_key_down is fired by the group's handler, where this event bubbles.
  }
  // The one tab stop: the chosen level, or the first while none is.
  const tabStop = chosen >= 1 ? chosen : 1

  return (
    <div
      id={inputId}
      className={`flevel${disabled ? ' flevel--disabled' : ''}`}
      role="radiogroup"
      aria-label={String(item.data.label.value ?? '') || undefined}
      aria-readonly={readOnly || undefined}
      aria-disabled={disabled || undefined}
      aria-describedby={describedBy(inputId, item)}
      style={{ minHeight: height, fontSize: Math.round(height * 0.7) }}
      {...events}
    >
      {Array.from({ length: count }, (_, i) => {
        const level = i + 1
        const shape = { ...DEFAULT_SHAPE, ...shapes[i] }
        const lit = fill ? level <= chosen : level === chosen
        return (
          <span
            key={level}
            ref={(el) => {
              stars.current[i] = el
            }}
            role="radio"
            aria-checked={level === chosen}
            aria-label={shape.label || t('field_ui.level', { value: level, max: count })}
            title={shape.label || undefined}
            tabIndex={disabled ? undefined : level === tabStop ? 0 : -1}
            className={`flevel__star${lit ? ' flevel__star--on' : ''}`}
            style={{ color: lit ? (plain ? 'currentColor' : shape.color) : undefined }}
            onClick={() => choose(level)}
            onKeyDown={(event) => onKeyDown(event, level)}
          >
            {shape.symbol || DEFAULT_SHAPE.symbol}
          </span>
        )
      })}
    </div>
  )
}
