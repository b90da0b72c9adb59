import env from '#start/env'
import { defineConfig, services } from '@adonisjs/drive'
import { dataSubdir } from '#lib/paths'
import { S3_TIMEOUT_DEFAULT_MS, s3Limits } from '#lib/storage_timeouts'

const disk = env.get('DRIVE_DISK', 'fs')

/**
 * Local disk under the data dir by default; S3-compatible object storage with DRIVE_DISK=s3. Only the
 * chosen service is configured, so the AWS SDK is loaded only by installations that use it.
 */
const driveConfig = defineConfig({
  default: disk,
  services: {
    fs: services.fs({
      location: dataSubdir('storage'),
      serveFiles: false,
      visibility: 'private',
    }),
    ...(disk === 's3' && {
      s3: services.s3({
        credentials: {
          accessKeyId: env.get('S3_ACCESS_KEY_ID', ''),
          secretAccessKey: env.get('S3_SECRET_ACCESS_KEY', ''),
        },
        region: env.get('S3_REGION', 'us-east-1'),
        bucket: env.get('S3_BUCKET', 'tramita'),
        endpoint: env.get('S3_ENDPOINT'),
        forcePathStyle: true,
        visibility: 'private',
        ...s3Limits(env.get('S3_TIMEOUT_MS', S3_TIMEOUT_DEFAULT_MS)),
      }),
    }),
  },
})

export default driveConfig

declare module '@adonisjs/drive/types' {
  export interface DriveDisks extends InferDriveDisks<typeof driveConfig> {}
}
