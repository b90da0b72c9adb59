/**
 * The entry of the input field renderers loaded with the form screen: their styles and components.
 * renderers/index.ts lists each under its type (celular, dates, level and pickers load on first use;
 * each of those files imports fields.css itself).
 */
import './fields.css'

export { ChoiceField } from './choice.js'
export { CheckboxField, RadioField, SwitchField } from './boolean.js'
export { NumberField } from './number.js'
export { EmailField, TextareaField, TextField, TramitaField } from './text.js'
export { VarField } from './var.js'
