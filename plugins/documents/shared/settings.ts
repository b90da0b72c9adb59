import { settingsDefaults, type SettingsDeclaration, type SettingsValues } from '@tramita/plugin-api'

/** The upload route's body cap (its `maxBytes`, fixed when the route is declared): no file may be larger. */
export const DOCUMENTS_UPLOAD_BODY_BYTES = 2 * 1024 ** 3

/**
 * The documents plugin's settings (administrators change them on the core's settings screen; labels
 * and help: `documents.settings.<key>` in locales/).
 */
export const DOCUMENTS_SETTINGS_DECLARATION = {
  /** Files and folders in the recycle bin longer than this are deleted for good by a daily job. */
  trashDays: { type: 'integer', default: 30, min: 1, max: 3650, unit: 'days' },
  /** Each user's storage, in bytes, unless documents_quotas says otherwise (0: unlimited). */
  quotaBytes: { type: 'integer', default: 10 * 1024 ** 3, min: 0, unit: 'bytes' },
  /** The largest file one upload may carry, in bytes: up to what the upload route's body may hold. */
  maxUploadBytes: { type: 'integer', default: 2 * 1024 ** 3, min: 1, max: DOCUMENTS_UPLOAD_BODY_BYTES, unit: 'bytes' },
  /**
   * PDFs and images are queued for OCR as they are uploaded (skip-text: pages with text are left alone).
   * Off by default: every OCR'd page is billed, so an institution turns it on.
   */
  ocrOnUpload: { type: 'boolean', default: false },
  /** Tesseract's languages for OCR: each one more slows every page (Chinese adds about 40 % to Spanish alone). */
  ocrLanguages: {
    type: 'enum',
    default: 'spa+eng+chi_sim',
    options: ['spa+eng+chi_sim', 'spa+eng', 'spa', 'eng', 'chi_sim+eng'],
  },
  /**
   * OCR engine processes one run uses at once (0: one more than the server's cores, at most 8). Fewer
   * leaves cores to the rest of the server while a long scan is OCR'd.
   */
  ocrWorkers: { type: 'integer', default: 0, min: 0, max: 8 },
  /** How long a retention confirmation's code (mailed to the responsible person) may be used. */
  retentionCodeDays: { type: 'integer', default: 30, min: 1, max: 365, unit: 'days' },
  /** How often every synchronized folder is compared with its agent's path (besides the agent's own reports). */
  syncMinutes: { type: 'integer', default: 5, min: 1, max: 1440, unit: 'minutes' },
} as const satisfies SettingsDeclaration

/** The defaults, as plain values. */
export const DOCUMENTS_SETTINGS = settingsDefaults(DOCUMENTS_SETTINGS_DECLARATION)

export type DocumentsSettings = SettingsValues<typeof DOCUMENTS_SETTINGS_DECLARATION>
