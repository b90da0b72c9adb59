/** Option defaults, in a file of their own so worker clients need not load QuickJS to read them. */
export const DEFAULTS = {
  memoryLimitBytes: 32 * 1024 * 1024,
  /**
   * 128 KiB (~700 plain calls deep). QuickJS counts only part of the native stack its recursion uses:
   * on a ~1 MB native stack (Node's main thread, a Chromium page) some paths (toString, valueOf,
   * constructors, generators) exhaust it first from ~200-300 KiB on, a recovered but costly fault.
   */
  stackLimitBytes: 128 * 1024,
  timeoutMs: 100,
  cacheSize: 2000,
}
