import type { BrowserContext } from 'playwright-core'
import { BASE } from './session.ts'
import { addTestCheck } from '../../core/server/tests/helpers/test_checks.ts'

/**
 * Content-Security-Policy violations seen in the e2e suite's browsers (issue 17). Every context the
 * harness opens is watched (chromium.ts); the check below, run after each e2e test (bootstrap.ts),
 * fails the test when there were any.
 */
const seen: string[] = []

/** Pages and frames report each violation on the console, with what was blocked and where. */
function reportViolations() {
  document.addEventListener(
    'securitypolicyviolation',
    (event: SecurityPolicyViolationEvent) => {
      const blocked = event.blockedURI || 'inline'
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${blocked} at ${event.sourceFile}:${event.lineNumber}`
      )
    },
    true
  )
}

/** The same, inside a worker. */
function reportWorkerViolations() {
  self.addEventListener('securitypolicyviolation', (event: SecurityPolicyViolationEvent) => {
    console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in a worker`)
  })
}

/**
 * Watches one context: the violation events of its pages, frames and workers, Chromium's own
 * "… violates the following Content Security Policy directive" messages, and the answers of our
 * server's documents, which must carry an enforced policy (a missing or Report-Only one would let a
 * violation pass unseen).
 */
export async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(reportViolations)
  context.on('console', (message) => {
    const text = message.text()
    if (text.startsWith('CSP violation:') || text.includes('Content Security Policy')) {
      seen.push(`${message.location().url || message.page()?.url() || '?'}: ${text}`)
    }
  })
  // A worker's violations fire in the worker, which takes no init script: the listener joins once it
  // runs (the workers here compile wasm or eval only on later work, so in time for that).
  context.on('page', (page) =>
    page.on('worker', (worker) => {
      worker.evaluate(reportWorkerViolations).catch((error: Error) => {
        if (!/closed|destroyed|Target/.test(error.message)) seen.push(`${worker.url()}: not watched (${error.message})`)
      })
    })
  )
  context.on('response', (response) => {
    if (response.request().resourceType() !== 'document' || !response.url().startsWith(`${BASE}/`)) return
    const headers = response.headers()
    if (headers['content-security-policy-report-only']) seen.push(`${response.url()}: a Report-Only policy`)
    if (response.status() === 200 && !headers['content-security-policy']) {
      seen.push(`${response.url()}: a document without a Content-Security-Policy`)
    }
  })
}

addTestCheck(() => {
  const violations = seen.splice(0)
  if (violations.length) throw new Error(`CSP violations:\n${violations.join('\n')}`)
})
