/**
 * The documents plugin's action types (spec 001 §4: search_doc_folder, get_info_doc_folder,
 * copy_cut_docs, rename_doc_folder, merge_docs, zip_docs): their configs and defaults, isomorphic, so
 * the server validates forms against them (the package's `./action-types`), the runtime's handlers
 * read them (web/action_handlers.ts) and the designer can offer them.
 */
import { Boolean as TBoolean, Literal, String as TString, Union } from '@sinclair/typebox'
import { defineActionType, FieldNameRef, type ActionType } from '@tramita/contract'

const Template = (fallback = '') => TString({ default: fallback, description: 'Text with ${field} placeholders' })
const OptionalField = TString({ default: '', description: 'The name of a field of this form, or empty' })

export const documentsActionTypes: readonly ActionType[] = [
  /** Finds documents and/or folders; the rows (folders first) go into `field` (a table, say). */
  defineActionType({
    type: 'search_doc_folder',
    plugin: 'documents',
    config: {
      type_search: Union([Literal('doc'), Literal('folder'), Literal('all')], { default: 'doc' }),
      text: Template(),
      id_folder: Template(),
      path: Template(),
      subfolders: TBoolean({ default: false }),
      /** More filters: a JSON object (extension, labels, metadata, modified_from, modified_to). */
      jsonwhere: Template(),
      field: FieldNameRef,
    },
  }),
  /** A document's or a folder's facts (sizes, counts, pages, owner, dates, labels, shares) into `field`. */
  defineActionType({
    type: 'get_info_doc_folder',
    plugin: 'documents',
    config: {
      kind: Union([Literal('doc'), Literal('folder')], { default: 'doc' }),
      id: Template(),
      field: FieldNameRef,
    },
  }),
  /** Copies or moves documents and folders (ids separated by commas) into a folder (empty: my documents). */
  defineActionType({
    type: 'copy_cut_docs',
    plugin: 'documents',
    config: {
      type: Union([Literal('copy'), Literal('cut')], { default: 'copy' }),
      documents: Template(),
      folders: Template(),
      folder_dest: Template(),
    },
  }),
  /** Renames a document or a folder. */
  defineActionType({
    type: 'rename_doc_folder',
    plugin: 'documents',
    config: { kind: Union([Literal('doc'), Literal('folder')], { default: 'doc' }), id: Template(), name: Template() },
  }),
  ...(['merge_docs', 'zip_docs'] as const).map((type) =>
    /** Joins PDFs / zips documents: downloaded, or saved into a folder (its facts into `field` when named). */
    defineActionType({
      type,
      plugin: 'documents',
      config: {
        documents: Template(),
        name: Template(type === 'merge_docs' ? 'documento' : 'documentos'),
        save: TBoolean({ default: false }),
        folder: Template(),
        field: OptionalField,
      },
    })
  ),
]

export default documentsActionTypes
