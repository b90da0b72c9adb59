/** Process definitions: schema, defaults and validation (spec 000 §3–§4). */
export * from './schema.js'
export * from './validate.js'
