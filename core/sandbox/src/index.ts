export type {
  Effect,
  FieldState,
  HostFunction,
  Json,
  RunOptions,
  Sandbox,
  SandboxOptions,
  SandboxStats,
  ScriptCall,
  ScriptError,
  ScriptErrorCode,
  ScriptResult,
  ScriptRunner,
} from './types.ts'
export { analyzeScript } from './analyze.ts'
export { HOST_API, HOST_DEPENDENT, SANDBOX_GLOBALS } from './globals.ts'
export { HOST_API_TYPINGS } from './host-api-types.ts'
export { createSandbox } from './sandbox.ts'
export { asRunner } from './runner.ts'
export { formatDate, formatMoney, formatNumber } from './host-api.ts'
export { createHybridRunner, type Compiled, type HybridRunner } from './hybrid.ts'
export { compileExpression } from './expression/index.ts'
