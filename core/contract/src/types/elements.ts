/**
 * Elements (spec 000 §3): layout and content that hold no value — divider, separate (spacer), text
 * (markdown with ${field} placeholders), image, html (ehtml), button, section, and the send / save buttons.
 */
import * as Type from '../schema/type.js'
import { Translatable } from '../schema/translatable.js'
import { defineFieldType } from '../registry.js'
import { BUTTON_COLOR, IMAGE_HEIGHT, INPUT_HEIGHT } from '../constants.js'

const ButtonStyle = Type.Object(
  {
    background: Type.String({ default: BUTTON_COLOR }),
    color: Type.String({ default: '' }),
    height: Type.Number({ minimum: 0, default: INPUT_HEIGHT }),
  },
  { additionalProperties: false, default: {} }
)

export const dividerElement = defineFieldType({
  kind: 'element',
  type: 'divider',
  data: {
    /** h horizontal, v vertical, n none (space only). */
    orientation: Type.Union([Type.Literal('h'), Type.Literal('v'), Type.Literal('n')], { default: 'h' }),
    color: Type.String({ default: '#cccccc' }),
  },
})

export const separateElement = defineFieldType({ kind: 'element', type: 'separate' })

/** Markdown whose ${field} placeholders are replaced by the fields' display values. */
export const textElement = defineFieldType({
  kind: 'element',
  type: 'text',
  data: { value: Translatable({ default: '' }) },
})

export const imageElement = defineFieldType({
  kind: 'element',
  type: 'image',
  data: {
    src: Type.String({ default: '' }),
    height: Type.Number({ minimum: 0, default: IMAGE_HEIGHT }),
    contain: Type.Boolean({ default: true }),
    position: Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')], { default: 'center' }),
  },
})

/** ehtml: designer-written HTML and CSS; its js runs in the sandbox, never in the page. */
export const htmlElement = defineFieldType({
  kind: 'element',
  type: 'html',
  data: {
    value: Type.String({ default: '' }),
    html: Type.String({ default: '' }),
    css: Type.String({ default: '' }),
    js: Type.String({ default: '' }),
    style: Type.String({ default: '' }),
  },
})

export const buttonElement = defineFieldType({
  kind: 'element',
  type: 'button',
  data: { value: Translatable({ default: '' }), style: ButtonStyle },
})

/** Shows the section page whose section_id is `section_id`. */
export const sectionElement = defineFieldType({
  kind: 'element',
  type: 'section',
  data: { section_id: Type.String({ minLength: 1 }) },
})

/** Send and save buttons: type send, a text and a style (#1C1066, height 45 by default). */
const submitButton = (type: 'send' | 'save') =>
  defineFieldType({
    kind: 'element',
    type,
    data: {
      type: Type.Literal('send', { default: 'send' }),
      value: Translatable({ default: type === 'save' ? 'Guardar' : 'Enviar' }),
      style: ButtonStyle,
    },
  })

export const sendElement = submitButton('send')
export const saveElement = submitButton('save')
