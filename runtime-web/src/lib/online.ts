/** The spec's online check (000 §4, §7): a HEAD request to the host; any HTTP answer means online. */
export const ONLINE_CHECK_INTERVAL_MS = 30_000
export const ONLINE_CHECK_TIMEOUT_MS = 10_000

export type FetchLike = (input: string, init: RequestInit) => Promise<unknown>

export async function probeOnline(fetcher: FetchLike = (input, init) => fetch(input, init)): Promise<boolean> {
  try {
    await fetcher('/', { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(ONLINE_CHECK_TIMEOUT_MS) })
    return true
  } catch {
    return false
  }
}
