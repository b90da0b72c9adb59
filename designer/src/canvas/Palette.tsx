/**
 * Every registered field and element type (plugin types too, when their registry is given), to drag
 * into rows: each by its readable name and icon; the type's id stays on the entry (data-type).
 */
import { useDraggable } from '@dnd-kit/core'
import { useTranslation } from 'react-i18next'
import type { FieldTypeRegistry, ItemKind } from '@tramita/contract'
import { paletteDragId } from './drops.js'
import { TypeIcon } from './type_icons.js'
import { typeName } from './type_names.js'

export function Palette({ registry }: { registry: FieldTypeRegistry }) {
  const { t } = useTranslation()
  return (
    <aside className="palette" data-testid="palette" aria-label={t('palette')}>
      {(['field', 'element'] as const).map((kind) => (
        <section key={kind}>
          <h2>{t(kind === 'field' ? 'palette_fields' : 'palette_elements')}</h2>
          <ul>
            {registry.list(kind).map((fieldType) => (
              <PaletteEntry key={fieldType.type} kind={kind} type={fieldType.type} />
            ))}
          </ul>
        </section>
      ))}
    </aside>
  )
}

function PaletteEntry({ kind, type }: { kind: ItemKind; type: string }) {
  const { t } = useTranslation()
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: paletteDragId(kind, type) })
  return (
    <li>
      <div
        ref={setNodeRef}
        className={isDragging ? 'palette__entry palette__entry--dragging' : 'palette__entry'}
        data-testid="palette-entry"
        data-kind={kind}
        data-type={type}
        {...attributes}
        {...listeners}
      >
        <TypeIcon kind={kind} type={type} />
        <span className="palette__name">{typeName(t, kind, type)}</span>
      </div>
    </li>
  )
}
