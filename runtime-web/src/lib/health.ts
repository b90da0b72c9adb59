/** The server's `GET /health` answer, read defensively (a 503 still carries the same JSON). */
export const HEALTH_CHECKS = ['database', 'queue', 'storage', 'sockets'] as const
export type HealthCheckName = (typeof HEALTH_CHECKS)[number]

export interface HealthCheck {
  ok: boolean
  driver: string
}

export interface HealthSummary {
  ok: boolean
  status: string
  checks: Record<HealthCheckName, HealthCheck>
}

/** Normalises a /health body; null when it is not one. A missing check counts as down. */
export function parseHealth(body: unknown): HealthSummary | null {
  if (body === null || typeof body !== 'object') return null
  const { status, checks } = body as { status?: unknown; checks?: unknown }
  if (typeof status !== 'string' || checks === null || typeof checks !== 'object') return null
  const read = (name: HealthCheckName): HealthCheck => {
    const check = (checks as Record<string, unknown>)[name]
    if (check === null || typeof check !== 'object') return { ok: false, driver: '' }
    const { ok, driver } = check as { ok?: unknown; driver?: unknown }
    return { ok: ok === true, driver: typeof driver === 'string' ? driver : '' }
  }
  const all = Object.fromEntries(HEALTH_CHECKS.map((name) => [name, read(name)])) as Record<
    HealthCheckName,
    HealthCheck
  >
  return { status, ok: status === 'ok' && HEALTH_CHECKS.every((name) => all[name].ok), checks: all }
}

export async function fetchHealth(signal?: AbortSignal): Promise<HealthSummary | null> {
  try {
    const response = await fetch('/health', { cache: 'no-store', headers: { accept: 'application/json' }, signal })
    return parseHealth(await response.json())
  } catch {
    return null
  }
}
