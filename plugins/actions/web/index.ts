/**
 * The action engine's browser side (isomorphic, no React): the engine, the handler registry and the
 * core handlers. runtime-web loads it lazily through `virtual:tramita-actions`, only for forms with
 * actions, composed with the enabled plugins' handlers.
 */
export { createActionEngine, MAX_ACTION_DEPTH, pageIndex } from './engine.js'
export { createAutocomplete, valueColumn } from './autocomplete.js'
export type * from './autocomplete.js'
export { createActionHandlerRegistry, defineActionHandler } from './registry.js'
export {
  CAPTURE_IDLE_MS,
  captureKeys,
  coreActionHandlers,
  CREATE_DOC_PATH,
  EXECUTE_SCRIPT_PATH,
  PROGRESS_COLOR,
  PUSH_NOTIFY_PATH,
  safeUrl,
} from './handlers.js'
export { displayText, fillTemplate, watchedPlaceholders } from './placeholders.js'
export type * from './types.js'
