/** One part's state in /health. */
export interface Check {
  ok: boolean
  driver: string
  detail?: string
}

/**
 * How long one part's check may take. A part that does not answer (a frozen database, a silent object
 * store: their own limits are 30 s and more) is reported as such, and /health still answers at once
 * with the others: a balancer's probe gives up after a few seconds.
 */
export const CHECK_MS = 5_000

/** Runs a part's check: its failure, or no answer within `limitMs`, is that part not ok, with why. */
export async function guarded(driver: string, check: () => Promise<Check>, limitMs = CHECK_MS): Promise<Check> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, driver, detail: `no answer within ${limitMs} ms` }), limitMs)
  })
  try {
    return await Promise.race([check(), late])
  } catch (error) {
    return { ok: false, driver, detail: error instanceof Error ? error.message : String(error) }
  } finally {
    clearTimeout(timer)
  }
}
