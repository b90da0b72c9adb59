import { readFile, unlink } from 'node:fs/promises'
import type { HttpContext } from '@adonisjs/core/http'
import drive from '@adonisjs/drive/services/main'
import { idCardSizeMm, normalizeExtensions } from '@tramita/contract'
import env from '#start/env'
import { done, fail } from '#lib/envelope'
import { boolField, field, jsonField } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import type { LoadedVersion } from '#services/process/definitions'
import { FACE_KINDS, idCardPdfBounded, type Face, type FaceKind } from '#services/generated_files/idcard'
import { TemplateError, placeholderTexts, renderPdf } from '#services/generated_files/pdf_template'
import { GENERATED_FOLDER, storeGenerated } from '#services/generated_files/store'
import { templateToPdf, WordError } from '#services/generated_files/word'
import { cleanName, inspectUpload, isRefusal } from '#services/uploads/inspect'
import { findUpload, isUploader, parseFilePath, type UploadRow } from '#services/uploads/staging'
import UploadsController from '#controllers/uploads_controller'

/** Largest values document a create_doc call may send (a form's values, as JSON text). */
const MAX_VALUES_CHARS = 1_000_000
const DEFAULT_MAX_MB = 20
/** dev_word_to_pdf calls per minute per caller (WORD_TO_PDF_PER_MINUTE overrides it): each may run soffice. */
export const WORD_TO_PDF_PER_MINUTE = Number(process.env.WORD_TO_PDF_PER_MINUTE) || 10
/** create_doc calls per minute per caller (CREATE_DOC_PER_MINUTE overrides it): each renders with pdfmake. */
export const CREATE_DOC_PER_MINUTE = Number(process.env.CREATE_DOC_PER_MINUTE) || 30
/**
 * cardim_preview and cardim_full calls per minute per caller, each route counted apart (ID_CARD_PER_MINUTE
 * overrides it): a card takes two previews and one join in pdf-lib's worker.
 */
export const ID_CARD_PER_MINUTE = Number(process.env.ID_CARD_PER_MINUTE) || 30

/**
 * Generated files: create_doc's PDF, Word to PDF and the ID card (spec 000 §4 create_doc, §7 cardim_*; 001 §7 dev_word_to_pdf).
 * The form context and its permissions are the uploads route's (UploadsController.formContext): the
 * starter of a new case, the assignee of a pending task, or an editor of a case's values; what is made
 * is stored like an upload (services/generated_files/store.ts) and read through GET /data/files/*.
 */
export default class GeneratedFilesController extends UploadsController {
  /**
   * POST …/search_endpoint/create_doc — data (form key), key_process, token, template (a name in the
   * jsonconfig's `documents`), file_name, values (JSON object). The PDF becomes the case's document
   * (the form's doc tab); on a new form (no case yet) it is the caller's until they save.
   */
  async createDoc(ctx: HttpContext) {
    const { version, uploader, row } = await this.formContext(ctx)
    await this.limitCaller(ctx, 'create_doc', CREATE_DOC_PER_MINUTE, uploader)
    const name = field(ctx, 'template', { max: 64 })
    const documents = version.form.documents ?? {}
    if (!Object.hasOwn(documents, name)) fail(message(ctx, 'generated_files.template_unknown', { template: name }), 404)
    const template = documents[name]!
    const raw = ctx.request.input('values')
    if (typeof raw === 'string' && raw.length > MAX_VALUES_CHARS) {
      fail(message(ctx, 'engine.too_large', { field: 'values' }), 413)
    }
    const posted = jsonField(ctx, 'values', false) ?? {}
    if (typeof posted !== 'object' || Array.isArray(posted)) fail(message(ctx, 'generated_files.values_invalid'))
    // What the form shows now, over what the case holds: the document is of the form as it is on screen.
    const stored = row ? (JSON.parse(row.values) as Record<string, unknown>) : {}
    const values = { ...stored, ...(posted as Record<string, unknown>) }
    const texts = placeholderTexts(version.form, values, row?.code ?? '', languageOf(ctx))

    let bytes: Buffer
    try {
      bytes = await renderPdf(template, texts)
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error
      fail(message(ctx, 'generated_files.template_failed', { template: name, detail: error.message }), 422)
    }
    const entry = await storeGenerated({
      bytes,
      ext: 'pdf',
      mime: 'application/pdf',
      realName: pdfName(field(ctx, 'file_name', { max: 200, required: false }) || name),
      folder: GENERATED_FOLDER,
      owner: uploader,
      formId: version.formId,
      field: '',
      caseId: row?.id ?? null,
      ip: ctx.request.ip(),
    })
    return done({ path: entry.path, real_name: entry.real_name, message: message(ctx, 'doc_subido_success') })
  }

  /**
   * POST …/search_endpoint/dev_word_to_pdf — pathdoc (a stored .docx the caller may read), datosvalues
   * (JSON object of the `{tags}`) → data.ruta, the PDF's path (the caller's file).
   */
  async wordToPdf(ctx: HttpContext) {
    const caller = await this.callerOf(ctx)
    if (!caller.principal && caller.uploader.taskId === null) fail(message(ctx, 'error.unauthorized'), 401)
    await this.limitCaller(ctx, 'word_to_pdf', WORD_TO_PDF_PER_MINUTE, caller.uploader)
    const path = parseFilePath(ctx.request.input('pathdoc'))
    if (!path) fail(message(ctx, 'upload.bad_path'))
    const source = await findUpload(path)
    if (!source || source.status === 'deleted') fail(message(ctx, 'upload.not_found'), 404)
    if (!(await this.mayRead(ctx, source, caller))) fail(message(ctx, 'upload.not_allowed'), 403)
    const values = jsonField(ctx, 'datosvalues', false) ?? {}
    if (typeof values !== 'object' || Array.isArray(values)) fail(message(ctx, 'generated_files.values_invalid'))
    if (source.ext !== 'docx') fail(message(ctx, 'generated_files.word.not_docx'))

    let pdf: Buffer
    try {
      const template = Buffer.from(await drive.use().getBytes(source.storage_key))
      pdf = await templateToPdf(template, values as Record<string, unknown>)
    } catch (error) {
      if (!(error instanceof WordError)) throw error
      if (error.key.startsWith('soffice')) console.error('dev_word_to_pdf', error.key, error.message)
      const status =
        error.key === 'too_large' ? 413 : error.key === 'template' || error.key === 'fill_timeout' ? 422 : 400
      fail(message(ctx, `generated_files.word.${error.key}`, { detail: error.message }), status)
    }
    const entry = await storeGenerated({
      bytes: pdf,
      ext: 'pdf',
      mime: 'application/pdf',
      realName: pdfName(source.real_name),
      folder: GENERATED_FOLDER,
      owner: caller.uploader,
      formId: source.form_id,
      field: '',
      caseId: null,
      ip: ctx.request.ip(),
    })
    return done({ ruta: entry.path, real_name: entry.real_name })
  }

  /**
   * POST …/search_endpoint/cardim_preview — the form context, field (a file field), pdf_one (a face:
   * PNG, JPEG or PDF, sent as a file), ampliar → data.path of the stored face (the preview image the
   * dialog shows) and the card's size in mm at that scale. The face stays the caller's for cardim_full.
   */
  async cardimPreview(ctx: HttpContext) {
    const file = ctx.request.file('pdf_one')
    try {
      const { version, uploader } = await this.formContext(ctx)
      await this.limitCaller(ctx, 'cardim_preview', ID_CARD_PER_MINUTE, uploader)
      const fieldName = this.idCardField(ctx, version)
      const enlarged = ctx.request.input('ampliar') === undefined ? false : boolField(ctx, 'ampliar')
      if (!file?.tmpPath || file.errors.length > 0) fail(message(ctx, 'upload.no_file'))
      const maxBytes = Math.floor(env.get('UPLOAD_MAX_MB', DEFAULT_MAX_MB) * 1024 * 1024)
      const target = {
        fieldType: 'file',
        allowed: ['png', 'jpg', 'jpeg', 'pdf'],
        limit: -1,
        foldertype: 'files' as const,
      }
      const checked = await inspectUpload(
        { tmpPath: file.tmpPath, clientName: file.clientName, size: file.size },
        0,
        target,
        maxBytes
      )
      if (isRefusal(checked)) fail(message(ctx, checked.key, checked.vars), checked.status)
      if (!FACE_KINDS.includes(checked.mime)) fail(message(ctx, 'generated_files.idcard.face_kind'))
      const isImage = checked.mime !== 'application/pdf'
      const entry = await storeGenerated({
        bytes: await readFile(file.tmpPath),
        ext: checked.storageExt,
        mime: checked.mime,
        realName: cleanName(file.clientName),
        folder: isImage ? 'images' : 'files',
        owner: uploader,
        formId: version.formId,
        field: fieldName,
        caseId: null,
        ip: ctx.request.ip(),
      })
      return done({ path: entry.path, real_name: entry.real_name, ext: entry.ext, ...idCardSizeMm(enlarged) })
    } finally {
      if (file?.tmpPath) await unlink(file.tmpPath).catch(() => {})
    }
  }

  /**
   * POST …/search_endpoint/cardim_full — the form context, field, pdf_one and pdf_two (paths answered
   * by cardim_preview), ampliar, file_name → the PDF's file entry (ext pdf), the caller's upload for
   * the field: the dialog puts it in the field's value and the form's save attaches it to the case.
   */
  async cardimFull(ctx: HttpContext) {
    const { version, uploader } = await this.formContext(ctx)
    await this.limitCaller(ctx, 'cardim_full', ID_CARD_PER_MINUTE, uploader)
    const fieldName = this.idCardField(ctx, version)
    const enlarged = ctx.request.input('ampliar') === undefined ? false : boolField(ctx, 'ampliar')
    const faces: Face[] = []
    for (const name of ['pdf_one', 'pdf_two']) {
      const path = parseFilePath(ctx.request.input(name))
      const row = path ? await findUpload(path) : null
      if (!row || !this.isFaceOf(row, uploader, version, fieldName)) {
        fail(message(ctx, 'generated_files.idcard.face_missing', { face: name }), 404)
      }
      faces.push({ bytes: await drive.use().getBytes(row.storage_key), mime: row.mime as FaceKind })
    }
    let pdf: Uint8Array
    try {
      pdf = await idCardPdfBounded(faces[0]!, faces[1]!, enlarged)
    } catch (error) {
      console.error('cardim_full', error)
      fail(message(ctx, 'scan_IDcard_error'), 422)
    }
    const entry = await storeGenerated({
      bytes: pdf,
      ext: 'pdf',
      mime: 'application/pdf',
      realName: pdfName(field(ctx, 'file_name', { max: 200, required: false }) || 'cedula'),
      folder: 'files',
      owner: uploader,
      formId: version.formId,
      field: fieldName,
      caseId: null,
      ip: ctx.request.ip(),
    })
    return done(entry)
  }

  /** The `field` of the call: a file field of the form that may hold a PDF. */
  private idCardField(ctx: HttpContext, version: LoadedVersion): string {
    const name = field(ctx, 'field', { max: 100 })
    const item = version.form.fields.find((f) => f.field_name === name)
    const allowed = item ? normalizeExtensions(item.data?.ext as string[] | undefined) : []
    if (!item || item.type !== 'file' || (allowed.length > 0 && !allowed.includes('pdf'))) {
      fail(message(ctx, 'generated_files.idcard.field', { field: name }))
    }
    return name
  }

  /** A face the caller stored with cardim_preview for this form and field, not yet anyone's case. */
  private isFaceOf(
    row: UploadRow,
    who: { userId: number | null; taskId: number | null },
    version: LoadedVersion,
    name: string
  ) {
    return (
      row.status === 'staged' &&
      isUploader(row, who) &&
      row.form_id === version.formId &&
      row.field === name &&
      FACE_KINDS.includes(row.mime)
    )
  }
}

/** A display name ending in .pdf. */
function pdfName(name: string): string {
  const base = cleanName(name).replace(/\.(docx?|pdf)$/i, '')
  return `${base || 'documento'}.pdf`
}
