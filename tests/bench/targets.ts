/**
 * A benchmark figure against its target: prints nothing itself, answers 'met' or 'MISSED' for the
 * figure's line, and a missed target makes `npm run bench` exit non-zero.
 */
export function target(met: boolean): 'met' | 'MISSED' {
  if (!met) process.exitCode = 1
  return met ? 'met' : 'MISSED'
}
