/**
 * The devices plugin's action types (spec 000 §4 scan_document, print_document): their configs and
 * defaults, isomorphic, so the server validates forms against them (the package's `./action-types`),
 * the runtime's handlers read them (web/action_handlers.ts) and the designer can offer them.
 */
import { Boolean as TBoolean, Integer, Literal, String as TString, Union } from '@sinclair/typebox'
import { defineActionType, FieldNameRef, FieldNamesRef, type ActionType } from '@tramita/contract'

const Template = (fallback = '') => TString({ default: fallback, description: 'Text with ${field} placeholders' })
/** How long to wait for the machine's answer. */
const Seconds = (fallback: number) => Integer({ minimum: 1, maximum: 3600, default: fallback })

export const devicesActionTypes: readonly ActionType[] = [
  /** Scans on a machine into a file or image field (its file added as an upload would be). */
  defineActionType({
    type: 'scan_document',
    plugin: 'devices',
    config: {
      field: FieldNameRef,
      /** The machine's token: usually `${machines_field}`, a machines picker's choice. */
      machine: Template(),
      dpi: Integer({ minimum: 50, maximum: 1200, default: 300 }),
      color: TBoolean({ default: true }),
      /** An image field takes png or jpeg (a pdf asked for one is scanned as jpeg). */
      format: Union([Literal('pdf'), Literal('png'), Literal('jpeg')], { default: 'pdf' }),
      /** The scanner's input source (SANE's name): Platen, ADF, ... */
      source: TString({ default: 'Platen', minLength: 1, maxLength: 50 }),
      duplex: TBoolean({ default: false }),
      ocr: TBoolean({ default: false }),
      seconds: Seconds(120),
    },
  }),
  /** Prints the files of file, image or signature fields on a machine. */
  defineActionType({
    type: 'print_document',
    plugin: 'devices',
    config: {
      machine: Template(),
      files: FieldNamesRef,
      copies: Integer({ minimum: 1, maximum: 99, default: 1 }),
      both_sides: TBoolean({ default: false }),
      color: TBoolean({ default: true }),
      tray: Integer({ minimum: 1, maximum: 20, default: 1 }),
      paper: Union([Literal('letter'), Literal('legal')], { default: 'letter' }),
      seconds: Seconds(300),
    },
  }),
]

export default devicesActionTypes
