/**
 * The frame around every field: label (pointing at the control), subtitle, description, the tooltip
 * and the required star with its 'required' tooltip, shown only when the field is enabled (spec 000 §5).
 */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FormItem } from '@tramita/contract'

/** The DOM id of a field's control (the missing-required list focuses it). */
export const inputIdOf = (name: string) => `ff-${name}`

/** Types whose control carries its own label text: their frame draws none (`bare`). */
export const BARE: ReadonlySet<string> = new Set(['checkbox', 'switch', 'radio'])

interface Props {
  item: FormItem
  inputId: string
  required: boolean
  /** Types that draw their own label (a switch, a checkbox) ask for none here. */
  bare?: boolean
  /** Not editable (see, approve, a readonly state): drawn as text, not as a box to type in (form.css). */
  readOnly?: boolean
  children: ReactNode
}

/** The label's text, the required star and the tooltip: FieldShell's label, and the one checkboxes draw. */
export function LabelContent({ item, required }: { item: FormItem; required: boolean }) {
  const { t } = useTranslation()
  const tooltip = typeof item.data.ref.tooltip === 'string' ? item.data.ref.tooltip : ''
  return (
    <>
      {item.data.label.value}
      {required && (
        <abbr className="ffield__star" title={t('required')} aria-label={t('required')}>
          *
        </abbr>
      )}
      {tooltip && (
        <span className="ffield__tip" title={tooltip} aria-label={tooltip} role="img">
          ?
        </span>
      )}
    </>
  )
}

export function FieldShell({ item, inputId, required, bare, readOnly, children }: Props) {
  const { label, design } = item.data
  const colors = design.colors
  return (
    <div
      className={readOnly ? 'ffield ffield--readonly' : 'ffield'}
      data-field={item.field_name}
      data-type={item.type}
      style={{
        color: colors.text || undefined,
        background: colors.background || undefined,
        paddingTop: design.paddings.top || undefined,
        paddingRight: design.paddings.right || undefined,
        paddingBottom: design.paddings.bottom || undefined,
        paddingLeft: design.paddings.left || undefined,
        fontSize: design.font_size,
      }}
    >
      {!bare && (label.value || required) && (
        <label className="ffield__label" htmlFor={inputId} style={{ color: colors.label || undefined }}>
          <LabelContent item={item} required={required} />
        </label>
      )}
      {label.subtitle && <p className="ffield__subtitle">{label.subtitle}</p>}
      {children}
      {label.description && (
        <p className="ffield__description" id={`${inputId}-description`}>
          {label.description}
        </p>
      )}
    </div>
  )
}
