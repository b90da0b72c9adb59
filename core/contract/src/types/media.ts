/** image (and its QR / barcode variant), signature and file (spec 000 §3, §5 "File upload"). */
import type { Static } from '@sinclair/typebox'
import * as Type from '../schema/type.js'
import { defineFieldType, type ValueContext } from '../registry.js'
import { contractText } from '../messages.js'
import { checkFileUpload, passesRequired } from '../rules/index.js'
import { FILE_ZONE_HEIGHT, IMAGE_HEIGHT, SIGNATURE_HEIGHT } from '../constants.js'
import { FileEntry, OrBlank, serialise } from './shared.js'

export type FileEntryValue = Static<typeof FileEntry>

/** Problems of uploaded entries against the allowlist, the blocklist and the upload status. */
function entryProblems(
  entries: FileEntryValue[],
  rules: { allowed: string[]; allowActiveContent?: boolean },
  imagesOnly: boolean,
  ctx: ValueContext
): string[] {
  const problems: string[] = []
  for (const entry of entries) {
    const checked = checkFileUpload({ name: entry.real_name || entry.path }, { ...rules, limit: -1, count: 0 })
    if (!checked.ok && (checked.reason === 'blocked_extension' || checked.reason === 'active_content')) {
      problems.push(contractText(ctx, 'errors.file_blocked', { ext: entry.ext.replace(/^\./, '') }))
    } else if (!checked.ok || (imagesOnly && !/^\.?(png|jpe?g|gif|webp|bmp)$/i.test(entry.ext))) {
      problems.push(contractText(ctx, 'errors.file_extension', { name: entry.real_name }))
    }
    if (entry.status !== 'good') problems.push(contractText(ctx, 'errors.file_status', { name: entry.real_name }))
  }
  return problems
}

export const imageType = defineFieldType({
  type: 'image',
  data: {
    height: Type.Number({ minimum: 0, default: IMAGE_HEIGHT }),
    contain: Type.Boolean({ default: true }),
    position: Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')], { default: 'center' }),
    configControl: Type.Object(
      {
        rotate: Type.Boolean({ default: false }),
        resize: Type.Boolean({ default: true }),
        circle: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} }
    ),
    /** Where a new image comes from: a file, the camera dialog, or either (the user chooses). */
    source: Type.Union([Type.Literal('upload'), Type.Literal('camera'), Type.Literal('both')], { default: 'upload' }),
    /** The QR / barcode variant: the image is generated from `source` (a script) instead of uploaded. */
    code: Type.Object(
      {
        enabled: Type.Boolean({ default: false }),
        kind: Type.Union([Type.Literal('qr'), Type.Literal('barcode')], { default: 'qr' }),
        format: Type.String({ default: 'CODE128' }),
        source: Type.String({ default: '' }),
      },
      { additionalProperties: false, default: {} }
    ),
  },
  value: OrBlank(FileEntry),
  stored: (_item, value) =>
    value === ''
      ? { value_replace: '', value_simple: '' }
      : { value_replace: value.real_name || value.path, value_simple: value.path },
  required: (_item, value) => passesRequired('image', value),
  validate: (_item, value, ctx) => (value === '' ? [] : entryProblems([value], { allowed: [] }, true, ctx)),
})

export const SignatureValue = Type.Object(
  { path: Type.String(), date: Type.String(), ip: Type.String(), device: Type.String({ default: '' }) },
  { additionalProperties: false }
)

/** 'firmado el DATE desde IP' when signed, 'sin firmar' otherwise (in the context's language). */
export function signatureText(value: Static<typeof SignatureValue> | '', ctx: ValueContext): string {
  return value !== '' && value.path
    ? contractText(ctx, 'signed', { date: value.date, ip: value.ip })
    : contractText(ctx, 'not_signed')
}

export const signatureType = defineFieldType({
  type: 'signature',
  data: {
    height: Type.Number({ minimum: 0, default: SIGNATURE_HEIGHT }),
    mode: Type.Union([Type.Literal('normal'), Type.Literal('signpro')], { default: 'normal' }),
  },
  value: OrBlank(SignatureValue),
  stored: (_item, value, ctx) => ({
    value_replace: signatureText(value, ctx),
    value_simple: value === '' ? '' : value.path,
  }),
  required: (_item, value) => passesRequired('signature', value),
})

export const fileType = defineFieldType({
  type: 'file',
  data: {
    height: Type.Number({ minimum: 0, default: FILE_ZONE_HEIGHT }),
    /** Allowed extensions (without dots); empty allows any that is not blocked. */
    ext: Type.Array(Type.String(), { default: [] }),
    preview: Type.Boolean({ default: true }),
    /** Accepts HTML, SVG and scripts (the contract's ACTIVE_CONTENT_EXTENSIONS), refused by default. */
    allowActiveContent: Type.Boolean({ default: false }),
    /** Offers the ID card scan (front and back joined into one PDF, spec 000 §2); no default: absent is off. */
    idcard: Type.Optional(Type.Boolean()),
  },
  value: Type.Array(FileEntry),
  defaultValue: () => [],
  stored: (_item, value) => ({
    value_replace: value.map((f) => f.real_name).join(', '),
    value_simple: serialise(value),
  }),
  required: (item, value) => passesRequired('file', value, { limit: item.data.ref.limit }),
  validate: (item, value, ctx) => {
    const limit = item.data.ref.limit
    const problems = limit > 0 && value.length > limit ? [contractText(ctx, 'errors.too_many_files', { limit })] : []
    return [
      ...problems,
      ...entryProblems(value, { allowed: item.data.ext, allowActiveContent: item.data.allowActiveContent }, false, ctx),
    ]
  },
})
