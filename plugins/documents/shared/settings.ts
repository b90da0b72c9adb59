/** The documents plugin's settings and their defaults (an administrator may change them). */
export const DOCUMENTS_SETTINGS = {
  /** Files and folders in the recycle bin longer than this are deleted for good by a daily job. */
  trashDays: 30,
  /** Each user's storage, in bytes, unless documents_quotas says otherwise (0: unlimited). */
  quotaBytes: 10 * 1024 ** 3,
  /** The largest file one upload may carry, in bytes. */
  maxUploadBytes: 2 * 1024 ** 3,
}

export type DocumentsSettings = typeof DOCUMENTS_SETTINGS
