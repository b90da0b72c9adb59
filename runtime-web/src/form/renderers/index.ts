/**
 * The renderers of every core field and element type, listed explicitly (no registration by import).
 * Keys are the contract registry's: a type the contract knows and no renderer draws shows UnknownType.
 */
import { createElement, useEffect, useState, type ComponentType } from 'react'
import type { ElementRenderer, FieldProps, FieldRenderer, RendererRegistry } from '../types.js'
import { SectionElement } from './elements/SectionElement.js'
import { SubmitElement } from './elements/SubmitElement.js'
import { ButtonElement } from './elements/ButtonElement.js'
import { DividerElement } from './elements/DividerElement.js'
import { HtmlElement } from './elements/HtmlElement.js'
import { ImageElement } from './elements/ImageElement.js'
import { SeparateElement } from './elements/SeparateElement.js'
import { TextElement } from './elements/TextElement.js'
import {
  CheckboxField,
  ChoiceField,
  EmailField,
  NumberField,
  RadioField,
  SwitchField,
  TextareaField,
  TextField,
  TramitaField,
  VarField,
} from './fields/inputs.js'

/**
 * A renderer loaded with the first form that uses its type. Media and tables bring dialogs, canvases
 * and code generators most forms never need; dates, pickers, phones and ratings are kept out of the
 * first download too (the form screen's budget). Until its code is here the field shows the loading
 * placeholder; it draws as soon as the code arrives (preload starts it as the form loads), and at
 * once when it already has. A state update, not React.lazy: a lazy component suspends on its first
 * render even when its import has settled, and Suspense's retry replaced the placeholder most of a
 * second later in Chromium 156 (page 2's dates, page 1's people picker).
 */
function lazyField(load: () => Promise<ComponentType<FieldProps<any>>>): FieldRenderer {
  let loaded: ComponentType<FieldProps<any>> | undefined
  let loading: Promise<ComponentType<FieldProps<any>>> | undefined
  const start = () => (loading ??= load().then((component) => (loaded = component)))
  function Field(props: FieldProps<any>) {
    const [component, setComponent] = useState(() => loaded)
    const [failure, setFailure] = useState<unknown>()
    useEffect(() => {
      if (component) return
      let live = true
      start().then(
        (arrived) => live && setComponent(() => arrived),
        (error: unknown) => live && setFailure(error)
      )
      return () => {
        live = false
      }
    }, [component])
    // A chunk that fails to load goes to the error boundary, as a lazy component's would.
    if (failure) throw failure
    return component ? createElement(component, props) : createElement('div', LOADING)
  }
  return Object.assign(Field, { preload: start })
}

/** What a field shows while its renderer loads (as ItemView's Suspense fallback). */
const LOADING = { className: 'ffield__loading', 'aria-busy': true }

const people = lazyField(() => import('./fields/people.js').then((m) => m.PeopleField))
const dates = {
  date: lazyField(() => import('./fields/datetime.js').then((m) => m.DateField)),
  time: lazyField(() => import('./fields/datetime.js').then((m) => m.TimeField)),
}

export const FIELD_RENDERERS: Readonly<Record<string, FieldRenderer>> = {
  file: lazyField(() => import('./fields/media/FileField.js').then((m) => m.FileField)),
  image: lazyField(() => import('./fields/media/ImageField.js').then((m) => m.ImageField)),
  signature: lazyField(() => import('./fields/media/SignatureField.js').then((m) => m.SignatureField)),
  table: lazyField(() => import('./fields/table/TableField.js').then((m) => m.TableField)),
  repeat: lazyField(() => import('./fields/repeat/RepeatField.js').then((m) => m.RepeatField)),
  text: TextField,
  textarea: TextareaField,
  email: EmailField,
  tramita: TramitaField,
  number: NumberField,
  money: NumberField,
  celular: lazyField(() => import('./fields/celular.js').then((m) => m.CelularField)),
  select: ChoiceField,
  list: ChoiceField,
  radios: ChoiceField,
  checkbox: CheckboxField,
  switch: SwitchField,
  radio: RadioField,
  date: dates.date,
  time: dates.time,
  level: lazyField(() => import('./fields/level.js').then((m) => m.LevelField)),
  users: people,
  areas: people,
  roles: people,
  machines: people,
  var: VarField,
}

export const ELEMENT_RENDERERS: Readonly<Record<string, ElementRenderer>> = {
  section: SectionElement,
  send: SubmitElement,
  save: SubmitElement,
  text: TextElement,
  html: HtmlElement,
  divider: DividerElement,
  separate: SeparateElement,
  image: ImageElement,
  button: ButtonElement,
}

/** The core renderers plus any given (plugins' types); a type given twice is an error, as in the contract. */
export function createRendererRegistry(
  extra: { fields?: Record<string, FieldRenderer>; elements?: Record<string, ElementRenderer> } = {}
): RendererRegistry {
  for (const type of Object.keys(extra.fields ?? {})) {
    if (type in FIELD_RENDERERS) throw new Error(`The field renderer "${type}" is registered twice`)
  }
  for (const type of Object.keys(extra.elements ?? {})) {
    if (type in ELEMENT_RENDERERS) throw new Error(`The element renderer "${type}" is registered twice`)
  }
  const fields = { ...FIELD_RENDERERS, ...extra.fields }
  const elements = { ...ELEMENT_RENDERERS, ...extra.elements }
  return {
    field: (type) => fields[type],
    element: (type) => elements[type],
    preload(types) {
      for (const type of types) void (fields[type] as { preload?: () => Promise<unknown> } | undefined)?.preload?.()
    },
  }
}
