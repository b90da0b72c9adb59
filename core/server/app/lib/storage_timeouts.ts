/**
 * Limits on every wait for S3-compatible storage (DRIVE_DISK=s3). The AWS SDK sets none by default: a
 * store that accepts the connection and then answers nothing held the request, and the upload or
 * download it served, until TCP gave up. With these, a connection must be made within 10 s (or the
 * limit, if shorter) and a request fails once its socket has been silent for S3_TIMEOUT_MS (30 s by
 * default): silence, not duration, so a large file that keeps flowing is never cut. The SDK tries a
 * request three times, so a store that stays silent fails a call after about three limits; the
 * exception handler answers 503 (storageDown).
 */

/** S3_TIMEOUT_MS when it is not set (start/env.ts checks it when it is). */
export const S3_TIMEOUT_DEFAULT_MS = 30_000

/** The S3 client's request handler settings (@smithy/node-http-handler) for a limit. */
export function s3Limits(limitMs: number) {
  return { requestHandler: { connectionTimeout: Math.min(10_000, limitMs), socketTimeout: limitMs } }
}
