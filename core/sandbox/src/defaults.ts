/** Option defaults, in a file of their own so worker clients need not load QuickJS to read them. */
export const DEFAULTS = {
  memoryLimitBytes: 32 * 1024 * 1024,
  /** 256 KiB: at 512 KiB some recursions (toString, Proxy traps) exhaust a ~1 MB native stack first. */
  stackLimitBytes: 256 * 1024,
  timeoutMs: 100,
  cacheSize: 2000,
}
