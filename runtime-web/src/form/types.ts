/**
 * What a field or element renderer receives. The frame (FieldShell) draws the label, description,
 * required star and tooltip around every field, so a renderer draws only its control.
 * Renderers are listed explicitly in renderers/index.ts, keyed `field:<type>` or `element:<type>`.
 */
import type { ComponentType } from 'react'
import type { Device, EventName, FileEntry, FormItem } from '@tramita/contract'
import type { Static } from '@sinclair/typebox'
import type { FormStore } from './store.js'

export type UploadedFile = Static<typeof FileEntry>
export type FolderType = 'images' | 'signatures' | 'files'

/** Picker options of the users, areas, roles and machines fields (spec 000 §3). */
export interface PeopleOption {
  code: string | number
  label: string
  color?: string
  photo?: string
  allData?: { areas?: number[]; rol_user?: number[] }
  [key: string]: unknown
}

/** What the page around the form offers renderers: uploads, lookups, previews, events. */
export interface RuntimeServices {
  lang: string
  /** Uploads files for a field; resolves the server's entries (ext, ip, path, real_name, status). */
  upload(files: File[], foldertype: FolderType, field: string): Promise<UploadedFile[]>
  /** Drops an upload made in this session before it is saved. */
  unlink(path: string): Promise<void>
  /** The address of a stored file's `path` (for links an external assignee or a visitor may open). */
  fileUrl(path: string): string
  /**
   * An address an <img>, <video> or <iframe> can load: stored files need the session's `token` header,
   * which such tags cannot send, so the file is fetched and shown from an object URL (see useFileSrc).
   */
  fileSrc(path: string): Promise<string>
  /** Options of a users / areas / roles / machines picker, loaded once per kind. */
  peopleOptions(kind: 'users' | 'areas' | 'roles' | 'machines'): Promise<PeopleOption[]>
  /** Shows a file in the draggable preview panel. */
  preview(file: { path: string; real_name: string }): void
  /**
   * POST /inside/forms/create/search_endpoint/<name> with the form's context (data, key_process, token):
   * the ID card's cardim_* calls. Absent where no case can be acted on (the designer's preview).
   */
  endpoint?<T = unknown>(name: string, fields: Record<string, string | Blob>): Promise<T>
  /** The form's key (the calls' `data`): a device's capture is checked against this form's fields. */
  formKey?: string
}

export interface FieldProps<V = unknown> {
  item: FormItem
  /** The value in the type's shape (the contract's value schema). */
  value: V
  /** Commits a value of the type's shape: the store re-runs what depends on it. */
  onChange(value: V): void
  /** Runs an event script (on_focus, on_blur, on_click, ...) of the item, when it has one. */
  onEvent(event: EventName): void
  /** Entry is not possible: a read-only case (see, approve) or the natural state readonly. */
  readOnly: boolean
  /** Natural state disabled: greyed, no add or remove. */
  disabled: boolean
  /** Shows as required now (required and enabled, spec 000 §5); FieldShell draws the star from it. */
  required: boolean
  /** The DOM id of the focusable control: the label points at it and the missing-required list focuses it. */
  inputId: string
  device: Device
  services: RuntimeServices
  /** Options replaced by a set_options effect (select, list, radios), when any. */
  options?: unknown
  /**
   * Draws another field as the form draws its own (frame, label, star, its type's renderer): a
   * repeating group's cells. Given by the form to every field it draws.
   */
  nested?: FieldRenderer
}

export interface ElementProps {
  item: FormItem
  device: Device
  store: FormStore
  services: RuntimeServices
  onEvent(event: EventName): void
  /** Renders one named item (a section element lays out its section page's rows with it). */
  renderItem(name: string): React.ReactNode
}

export type FieldRenderer = ComponentType<FieldProps<any>>
export type ElementRenderer = ComponentType<ElementProps>

export interface RendererRegistry {
  field(type: string): FieldRenderer | undefined
  element(type: string): ElementRenderer | undefined
  /** Starts loading the lazily loaded renderers of these field types (a form's, as soon as it is known). */
  preload(types: Iterable<string>): void
}
