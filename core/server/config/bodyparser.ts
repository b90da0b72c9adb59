import { defineConfig } from '@adonisjs/core/bodyparser'
import env from '#start/env'

export default defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: { convertEmptyStringsToNull: false, types: ['application/x-www-form-urlencoded'] },
  json: {
    convertEmptyStringsToNull: false,
    types: ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report'],
  },
  multipart: {
    autoProcess: true,
    convertEmptyStringsToNull: false,
    processManually: [],
    // The whole request: at least room for one file of UPLOAD_MAX_MB and the form fields.
    limit: `${Math.max(50, Math.ceil(env.get('UPLOAD_MAX_MB', 20)) + 1)}mb`,
    types: ['multipart/form-data'],
  },
})
