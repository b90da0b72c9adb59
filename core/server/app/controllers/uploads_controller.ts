import { unlink } from 'node:fs/promises'
import type { HttpContext } from '@adonisjs/core/http'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { done, fail } from '#lib/envelope'
import { headerValue } from '#lib/call_contract'
import { setStoredFileHeaders } from '#lib/security_headers'
import { field } from '#lib/input'
import { message } from '#lib/messages'
import { readSignedId } from '#lib/signed_id'
import { principalFor, type Principal } from '#services/auth/principal'
import { limitPerMinute } from '#services/auth/throttle'
import { editValuesRefusal } from '#services/process/access'
import { mayDo, mayStart, membershipsOf } from '#services/process/assignees'
import { latestVersionByKey, versionById, type LoadedVersion } from '#services/process/definitions'
import type { CaseRow, TaskRow } from '#services/process/engine'
import { newObjectKey } from '#services/storage'
import { principalMayRead } from '#services/uploads/readers'
import { fieldUploadTarget } from '#services/uploads/targets'
import {
  cleanName,
  FOLDERTYPES,
  inspectUpload,
  isRefusal,
  type Foldertype,
  type Inspected,
  type UploadTarget,
} from '#services/uploads/inspect'
import {
  filePathOf,
  findUpload,
  FILE_PATH_PREFIX,
  isUploader,
  parseFilePath,
  removeStaged,
  stageUploads,
  type NewUpload,
  type Uploader,
  type UploadRow,
} from '#services/uploads/staging'

/** Files in one upload request; a field with a higher limit takes several requests. */
const MAX_FILES_PER_REQUEST = 20
const DEFAULT_MAX_MB = 20
/**
 * Upload requests per minute per caller (UPLOADS_PER_MINUTE overrides it): each is inspected and may be
 * scanned. A person attaching files, even many fields' worth, stays far below it.
 */
export const UPLOADS_PER_MINUTE = Number(process.env.UPLOADS_PER_MINUTE) || 120
/** Shown in the browser; everything else is downloaded (with nosniff, so nothing is reinterpreted). */
const INLINE_MIME = /^(image\/(png|jpeg|gif|webp|bmp)|application\/pdf|audio\/[\w.+-]+|video\/[\w.+-]+)$/

/** Who is calling: a signed-in user and/or the holder of a task link. */
export interface Caller {
  principal: Principal | null
  uploader: Uploader
}

/**
 * The form runtime's files (spec 000 §7): upload to a field (staged until a save commits it),
 * unlink one's own staged upload, and read a file of a case one may see.
 */
export default class UploadsController {
  /**
   * POST /data/form/upload/files — foldertype, file (one or several), field, and the form context:
   * `data` (case new), `key_process` + `token` (a task), or `key_process` alone (edit values).
   */
  async upload(ctx: HttpContext) {
    const files = ctx.request.files('file')
    try {
      const { version, uploader } = await this.formContext(ctx)
      await this.limitCaller(ctx, 'upload', UPLOADS_PER_MINUTE, uploader)
      const foldertype = field(ctx, 'foldertype', { max: 12 }) as Foldertype
      if (!FOLDERTYPES.includes(foldertype)) fail(message(ctx, 'upload.foldertype_invalid'))
      const fieldName = field(ctx, 'field', { max: 100 })
      const target = this.targetOf(ctx, version, fieldName, foldertype)
      if (files.length === 0) fail(message(ctx, 'upload.no_file'))
      if (files.length > MAX_FILES_PER_REQUEST) fail(message(ctx, 'upload.limit_reached'))

      // Every file is checked before any is stored: a request is taken whole or not at all.
      const maxBytes = Math.floor(env.get('UPLOAD_MAX_MB', DEFAULT_MAX_MB) * 1024 * 1024)
      const checked: { tmpPath: string; name: string; size: number; inspected: Inspected }[] = []
      for (const [index, file] of files.entries()) {
        if (!file.tmpPath || file.errors.length > 0) fail(message(ctx, 'upload.no_file'))
        const result = await inspectUpload(
          { tmpPath: file.tmpPath, clientName: file.clientName, size: file.size },
          index,
          target,
          maxBytes
        )
        if (isRefusal(result)) fail(message(ctx, result.key, result.vars), result.status)
        checked.push({ tmpPath: file.tmpPath, name: cleanName(file.clientName), size: file.size, inspected: result })
      }

      const ip = ctx.request.ip()
      const sources = new Map<string, string>()
      const rows: NewUpload[] = checked.map(({ tmpPath, name, size, inspected }) => {
        const storageKey = newObjectKey(foldertype, inspected.storageExt)
        sources.set(storageKey, tmpPath)
        return {
          path: filePathOf(storageKey),
          storage_key: storageKey,
          real_name: name,
          ext: inspected.ext,
          mime: inspected.mime,
          size,
          ip: ip.slice(0, 45),
          owner_user_id: uploader.userId,
          owner_task_id: uploader.taskId,
          form_id: version.formId,
          field: fieldName,
          foldertype,
        }
      })
      // Rows first, then the files: a kill half-way never leaves a file that no row names.
      await stageUploads(rows, (row) =>
        drive.use().moveFromFs(sources.get(row.storage_key)!, row.storage_key, { contentType: row.mime })
      )
      // Spec 000 §3 "Uploaded file entry": exactly these keys (the contract's FileEntry has no others).
      return done(rows.map((r) => ({ ext: r.ext, ip: r.ip, path: r.path, real_name: r.real_name, status: 'good' })))
    } finally {
      // The body parser's temporary copies of files that were refused (moved ones are gone already).
      await Promise.all(files.map((f) => (f.tmpPath ? unlink(f.tmpPath).catch(() => {}) : undefined)))
    }
  }

  /** POST /data/form/upload/files/unlink — path; removes the caller's own staged upload. */
  async unlink(ctx: HttpContext) {
    const path = parseFilePath(ctx.request.input('path'))
    if (!path) fail(message(ctx, 'upload.bad_path'))
    const caller = await this.callerOf(ctx)
    if (!caller.principal && caller.uploader.taskId === null) fail(message(ctx, 'error.unauthorized'), 401)
    const row = await findUpload(path)
    if (!row || row.status === 'deleted') fail(message(ctx, 'upload.not_found'), 404)
    if (!isUploader(row, caller.uploader)) fail(message(ctx, 'upload.not_yours'), 403)
    // A saved case still holds it; the next save without it is what drops it from the case.
    if (row.status === 'promoted') return done({ path, removed: false, message: message(ctx, 'upload.kept') })
    return done({ path, removed: await removeStaged(row) })
  }

  /** GET /data/files/:name — the file, to its uploader and to whoever may see its case. */
  async show(ctx: HttpContext) {
    const row = await findUpload(FILE_PATH_PREFIX + ctx.params.name)
    if (!row || row.status === 'deleted') fail(message(ctx, 'upload.not_found'), 404)
    const caller = await this.callerOf(ctx)
    if (!(await this.mayRead(ctx, row, caller))) {
      const anonymous = !caller.principal && caller.uploader.taskId === null && !ctx.request.input('id_flow')
      if (anonymous) fail(message(ctx, 'error.unauthorized'), 401)
      fail(message(ctx, 'upload.not_allowed'), 403)
    }
    const disk = drive.use()
    if (!(await disk.exists(row.storage_key))) fail(message(ctx, 'upload.not_found'), 404)
    const inline = INLINE_MIME.test(row.mime)
    ctx.response.header('Content-Type', row.mime)
    ctx.response.header('Content-Length', String(row.size))
    ctx.response.header('Content-Disposition', disposition(inline ? 'inline' : 'attachment', row.real_name))
    setStoredFileHeaders(ctx.response, row.mime)
    ctx.response.header('Cache-Control', 'private, no-cache')
    ctx.response.stream(await disk.getStream(row.storage_key))
  }

  /** The session of the `token` header, and the task a `token` field (a task link) names. */
  protected async callerOf(ctx: HttpContext): Promise<Caller> {
    const principal = ctx.principal ?? (await principalFor(headerValue(ctx.request.header('token'))))
    const taskId = readSignedId('task', ctx.request.input('token'))
    return { principal, uploader: { userId: principal?.user.id ?? null, taskId } }
  }

  /** Counts one `route` call by the uploader (user, else task link); past `perMinute` it answers 429. */
  protected limitCaller(ctx: HttpContext, route: string, perMinute: number, who: Uploader): Promise<void> {
    const id = who.userId !== null ? `u${who.userId}` : `t${who.taskId}`
    return limitPerMinute(`${route}:${id}`, perMinute, message(ctx, 'auth.too_many_requests'))
  }

  /**
   * The form version the upload is for, its case (none for a new one) and who owns it, checked as the
   * save will be: the starter of a new case, the assignee of a pending task, or an editor of the case's
   * values. Generated files (generated_files_controller.ts) are checked the same way.
   */
  protected async formContext(
    ctx: HttpContext
  ): Promise<{ version: LoadedVersion; uploader: Uploader; row: CaseRow | null }> {
    const principal = (await this.callerOf(ctx)).principal
    // A signed-in caller owns their uploads; a task link owns them only for an external assignee.
    const asUser = (p: Principal) => ({ userId: p.user.id, taskId: null })
    if (!ctx.request.input('key_process')) {
      if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
      const version = await latestVersionByKey(field(ctx, 'data', { max: 64 }))
      if (!version) fail(message(ctx, 'engine.not_found'), 404)
      if (!mayStart(version.process, principal, await membershipsOf(principal))) {
        fail(message(ctx, 'engine.not_starter'), 403)
      }
      return { version, uploader: asUser(principal), row: null }
    }
    const caseId = readSignedId('case', ctx.request.input('key_process'))
    const row = caseId ? ((await db.from('cases').where('id', caseId).first()) as CaseRow | null) : null
    if (!row) fail(message(ctx, 'engine.not_found'), 404)
    const version = (await versionById(row.form_version_id))!
    if (ctx.request.input('token')) {
      const taskId = readSignedId('task', ctx.request.input('token'))
      const task = taskId ? ((await db.from('tasks').where('id', taskId).first()) as TaskRow | null) : null
      if (!task || task.case_id !== row.id) fail(message(ctx, 'engine.not_found'), 404)
      if (task.status !== 'pending' || row.status !== 'open') fail(message(ctx, 'tarea_realizada'), 409)
      if (task.assignee_type === 'external') {
        return { version, uploader: principal ? asUser(principal) : { userId: null, taskId: task.id }, row }
      }
      if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
      if (!mayDo(task, principal, await membershipsOf(principal))) fail(message(ctx, 'engine.not_yours'), 403)
      return { version, uploader: asUser(principal), row }
    }
    if (!principal) fail(message(ctx, 'error.unauthorized'), 401)
    const refused = editValuesRefusal(principal, row)
    if (refused) fail(message(ctx, refused.key), refused.status)
    return { version, uploader: asUser(principal), row }
  }

  /** The rules of the named field of the version: its type, allowed extensions and limit. */
  private targetOf(ctx: HttpContext, version: LoadedVersion, name: string, foldertype: Foldertype): UploadTarget {
    const target = fieldUploadTarget(version, name, foldertype)
    if (!target) fail(message(ctx, 'upload.field_unknown', { field: name }))
    return target
  }

  /**
   * Staged: its uploader only. Promoted: also whoever may see the case (principalMayRead), an external
   * assignee of the case through their task link, and a consultation visitor (the `id_flow` of the
   * public consultation) when the process shows the file's field outside.
   */
  protected async mayRead(ctx: HttpContext, row: UploadRow, caller: Caller): Promise<boolean> {
    if (isUploader(row, caller.uploader)) return true
    if (caller.principal && (await principalMayRead(row, caller.principal))) return true
    if (row.status !== 'promoted' || row.case_id === null) return false
    const caseRow = (await db.from('cases').where('id', row.case_id).first()) as CaseRow | null
    if (!caseRow) return false
    if (caller.uploader.taskId !== null) {
      const task = (await db.from('tasks').where('id', caller.uploader.taskId).first()) as TaskRow | null
      if (task?.case_id === caseRow.id && task.assignee_type === 'external') return true
    }
    if (readSignedId('consult', ctx.request.input('id_flow')) === caseRow.id) {
      const consult = (await versionById(caseRow.form_version_id))?.process.external_consultation
      const shown = consult?.select_show_info ?? []
      return !!consult?.enable && (shown.length === 0 || shown.includes(row.field))
    }
    return false
  }
}

/** A Content-Disposition with an ASCII fallback name and the real one in UTF-8 (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}
