/**
 * Every field and element type of the spec, listed explicitly. A registry is built from this list
 * (plus any plugin's types) by the caller; nothing registers itself on import.
 */
import { createFieldTypeRegistry, type FieldType, type FieldTypeRegistry } from './registry.js'
import { celularType, emailType, textareaType, textType, tramitaType } from './types/text.js'
import { moneyType, numberType } from './types/number.js'
import { checkboxType, listType, radioType, radiosType, selectType, switchType } from './types/choice.js'
import { dateType, timeType } from './types/datetime.js'
import { fileType, imageType, signatureType } from './types/media.js'
import { levelType } from './types/level.js'
import { areasType, machinesType, rolesType, usersType } from './types/people.js'
import { tableType } from './types/table.js'
import { repeatType } from './types/repeat.js'
import { varType } from './types/var.js'
import {
  buttonElement,
  dividerElement,
  htmlElement,
  imageElement,
  saveElement,
  sectionElement,
  sendElement,
  separateElement,
  textElement,
} from './types/elements.js'

export const coreFieldTypes: readonly FieldType[] = Object.freeze([
  textType,
  numberType,
  textareaType,
  celularType,
  selectType,
  listType,
  radiosType,
  dateType,
  timeType,
  imageType,
  signatureType,
  levelType,
  fileType,
  tramitaType,
  checkboxType,
  radioType,
  switchType,
  tableType,
  repeatType,
  emailType,
  moneyType,
  areasType,
  rolesType,
  usersType,
  machinesType,
  varType,
  dividerElement,
  separateElement,
  textElement,
  imageElement,
  sendElement,
  htmlElement,
  buttonElement,
  sectionElement,
  saveElement,
])

let core: FieldTypeRegistry | undefined

/** The registry of the core types alone (built once, on first use). Plugins build their own with theirs. */
export function coreRegistry(): FieldTypeRegistry {
  core ??= createFieldTypeRegistry(coreFieldTypes)
  return core
}
