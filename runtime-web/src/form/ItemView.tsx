/**
 * One field or element of a layout row, drawn by its type's renderer. It subscribes to its own name
 * only, so typing in one field never re-renders the others.
 */
import { memo, Suspense, useCallback, type CSSProperties } from 'react'
import type { EventName } from '@tramita/contract'
import { useFieldTick, useForm } from './context.js'
import { BARE, FieldShell, inputIdOf } from './FieldShell.js'
import { columnsFor } from './grid.js'
import { SetView } from './SetView.js'
import type { FieldProps } from './types.js'
import { UnknownType } from './renderers/UnknownType.js'

export { inputIdOf }

export const ItemView = memo(function ItemView({ name }: { name: string }) {
  const context = useForm()
  const { store, renderers, services, device } = context
  useFieldTick(store, name)
  const onEvent = useCallback((event: EventName) => store.fireEvent(name, event), [store, name])
  const onChange = useCallback((value: unknown) => store.setValue(name, value), [store, name])
  const renderItem = useCallback((child: string) => <ItemView key={child} name={child} />, [])
  const entry = store.item(name)
  if (!entry || !store.isShown(name)) return null
  const { item, kind } = entry
  const style: CSSProperties = {
    gridColumn: `span ${columnsFor(item, device)}`,
    ...(store.styleOf(name) as CSSProperties | undefined),
  }
  if (kind === 'element') {
    const Element = renderers.element(item.type)
    return (
      <div className="fcell" style={style} data-element={name}>
        {Element ? (
          <Element
            item={item}
            device={device}
            store={store}
            services={services}
            onEvent={onEvent}
            renderItem={renderItem}
          />
        ) : (
          <UnknownType type={item.type} />
        )}
      </div>
    )
  }
  // Var fields hold process variables: never drawn, not even as an empty cell.
  if (item.type === 'var') return null
  const Field = renderers.field(item.type)
  const inputId = inputIdOf(name)
  const required = store.showsRequired(name)
  const readOnly = store.isReadOnly(name)
  if (item.isSet && Field) {
    // Drawn once per repetition; the frame's label becomes the repetitions' legend.
    return (
      <div className="fcell" style={style}>
        <FieldShell item={item} inputId={inputId} required={required} readOnly={readOnly} bare>
          <SetView item={item} Field={Field} required={required} onEvent={onEvent} />
        </FieldShell>
      </div>
    )
  }
  return (
    <div className="fcell" style={style}>
      <FramedField
        item={item}
        value={store.value(name)}
        onChange={onChange}
        onEvent={onEvent}
        readOnly={readOnly}
        disabled={store.isDisabled(name)}
        required={required}
        inputId={inputId}
        device={device}
        services={services}
        options={store.optionsOf(name)}
        nested={FramedField}
      />
    </div>
  )
})

/**
 * A field in its frame, drawn by its type's renderer: each field of a layout, and each cell of a
 * repeating group (given to renderers as `nested`, so a lazily loaded one needs no frame of its own).
 */
function FramedField(props: FieldProps) {
  const { renderers } = useForm()
  const { item, inputId, required, readOnly } = props
  const Field = renderers.field(item.type)
  return (
    <FieldShell item={item} inputId={inputId} required={required} readOnly={readOnly} bare={BARE.has(item.type)}>
      {Field ? (
        <Suspense fallback={<div className="ffield__loading" aria-busy="true" />}>
          <Field {...props} />
        </Suspense>
      ) : (
        <UnknownType type={item.type} />
      )}
    </FieldShell>
  )
}
