/**
 * The one way a test waits: poll `check` (a row, a page state, a counter) until it holds, failing
 * after `ms` with `what` (text, or a function for a message built at that moment: a process's output).
 * The pause between polls is the only sleep tests may take (eslint.config.js forbids the others).
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
  what: string | (() => string) = 'condition',
  every = 50
): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${typeof what === 'function' ? what() : what} not met within ${ms} ms`)
    // eslint-disable-next-line no-restricted-syntax -- the polling interval itself
    await new Promise((resolve) => setTimeout(resolve, every))
  }
}
