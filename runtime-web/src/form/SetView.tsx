/**
 * A set field (spec 000 §3 isSet / set / idset; the contract's sets.ts): its control drawn once per
 * repetition the value of the field it repeats over gives, each with its caption and its own value
 * (`name[id]` in the store). It follows the driving field, so repetitions come and go as it changes.
 */
import { Suspense, useCallback } from 'react'
import { setEntryKey, setRepeatCaption, setRepeats, type EventName, type FormItem } from '@tramita/contract'
import { useFieldTick, useForm } from './context.js'
import { LabelContent } from './FieldShell.js'
import { inputIdOf } from './ItemView.js'
import type { FieldRenderer } from './types.js'

interface Props {
  item: FormItem
  Field: FieldRenderer
  required: boolean
  onEvent(event: EventName): void
}

export function SetView({ item, Field, required, onEvent }: Props) {
  const { store } = useForm()
  useFieldTick(store, item.set)
  const driving = store.item(item.set)
  const repeats = setRepeats(driving?.kind === 'field' ? driving.item : undefined, store.value(item.set))
  if (repeats.length === 0) return null
  return (
    <fieldset className="fset" data-set={item.field_name}>
      <legend className="ffield__label">
        <LabelContent item={item} required={required} />
      </legend>
      {repeats.map((repeat) => (
        <SetEntryView
          key={repeat.id}
          item={item}
          entryKey={setEntryKey(item.field_name, repeat.id)}
          caption={setRepeatCaption(item, repeat)}
          Field={Field}
          required={required}
          onEvent={onEvent}
        />
      ))}
    </fieldset>
  )
}

interface EntryProps extends Props {
  entryKey: string
  caption: string
}

/** One repetition: subscribes to its own key only, like a field. */
function SetEntryView({ item, entryKey, caption, Field, required, onEvent }: EntryProps) {
  const { store, services, device } = useForm()
  useFieldTick(store, entryKey)
  const onChange = useCallback((value: unknown) => store.setValue(entryKey, value), [store, entryKey])
  const name = item.field_name
  const inputId = inputIdOf(entryKey)
  return (
    <div className="fset__entry" data-set-entry={entryKey}>
      <label className="fset__caption" htmlFor={inputId}>
        {caption}
      </label>
      <Suspense fallback={<div className="ffield__loading" aria-busy="true" />}>
        <Field
          item={item}
          value={store.value(entryKey) ?? store.registry.get('field', item.type)?.defaultValue(item)}
          onChange={onChange}
          onEvent={onEvent}
          readOnly={store.isReadOnly(name)}
          disabled={store.isDisabled(name)}
          required={required}
          inputId={inputId}
          device={device}
          services={services}
          options={store.optionsOf(name)}
        />
      </Suspense>
    </div>
  )
}
