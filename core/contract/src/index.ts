/**
 * @tramita/contract — the form contract, one implementation for the browser and the server:
 * jsonconfig schema and types, field-type registry, defaults, stored values, the rules of spec 000 §5
 * and 001 §5, required fields, submission validation and importers.
 */
export * from './constants.js'
export * from './schema/common.js'
export * from './schema/page.js'
export * from './schema/validations.js'
export * from './schema/form.js'
export * from './config.js'
export * from './registry.js'
export * from './core-types.js'
export * from './defaults.js'
export * from './layout.js'
export * from './validate-config.js'
export * from './stored-value.js'
export * from './graph.js'
export * from './form-state.js'
export * from './evaluate.js'
export * from './required.js'
export * from './submission.js'
export * from './json-schema.js'
export * from './rules/index.js'
export * from './process/index.js'
export * from './importers/index.js'
export { formatMoney } from './types/number.js'
export { signatureText, SignatureValue } from './types/media.js'
export { FileEntry } from './types/shared.js'
