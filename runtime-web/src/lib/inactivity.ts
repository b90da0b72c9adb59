/**
 * The inactivity rule (spec 001 §8 "Session closed for inactivity (countdown warning, cancel to
 * skip)"): after `idleMs` without input the session closes; during the last `warnMs` a countdown is
 * shown, and cancelling it counts as activity.
 */
export const WARN_BEFORE_MS = 60_000

export type IdlePhase = { phase: 'active' } | { phase: 'warning'; secondsLeft: number } | { phase: 'expired' }

export function idlePhase(lastActivity: number, now: number, idleMs: number, warnMs = WARN_BEFORE_MS): IdlePhase {
  const left = lastActivity + idleMs - now
  if (left <= 0) return { phase: 'expired' }
  if (left <= warnMs) return { phase: 'warning', secondsLeft: Math.ceil(left / 1000) }
  return { phase: 'active' }
}
