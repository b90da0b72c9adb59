/**
 * Checks run after every test of the suites that ask for them (bootstrap.ts): a helper registers one
 * when it is loaded (the e2e harness's CSP watch does), and a check that throws fails that test.
 */
const checks: (() => void)[] = []

export function addTestCheck(check: () => void): void {
  checks.push(check)
}

export function runTestChecks(): void {
  for (const check of checks) check()
}
