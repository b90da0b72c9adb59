/**
 * Checks run after every test of the suites that ask for them (bootstrap.ts): a helper registers one
 * when it is loaded (the e2e harness's CSP watch and accessibility check do), and a check that throws
 * (or rejects) fails that test.
 */
const checks: (() => void | Promise<void>)[] = []

export function addTestCheck(check: () => void | Promise<void>): void {
  checks.push(check)
}

/** Runs every check, then fails with all their failures together (one check's failure hides none). */
export async function runTestChecks(): Promise<void> {
  const failures: string[] = []
  for (const check of checks) {
    try {
      await check()
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error))
    }
  }
  if (failures.length) throw new Error(failures.join('\n'))
}
