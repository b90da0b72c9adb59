/**
 * The fuzzing part (issue 22): malformed requests from the OpenAPI document to every route as every
 * role, against a real server process; 0 answers 5xx, 0 over 5 s, 0 changes by a refused request.
 * Bounded (CI): TRAMITA_FUZZ_REQUESTS (default 10,500) on SQLite. Full: 30,000 on SQLite and 15,000 on
 * MariaDB (TRAMITA_FUZZ_DATABASES picks some). TRAMITA_FUZZ_SEED repeats a run (its seed is printed).
 */
import { fuzzServer, ROLES } from '../fuzz/fuzz.mjs'
import { startServer } from '../fuzz/server.mjs'

export async function run({ bounded, log }) {
  const seed = Number(process.env.TRAMITA_FUZZ_SEED ?? Date.now() % 2 ** 31)
  const asked = process.env.TRAMITA_FUZZ_REQUESTS ? Number(process.env.TRAMITA_FUZZ_REQUESTS) : null
  const plans = bounded
    ? [{ database: 'sqlite', total: asked ?? 10_500 }]
    : [
        { database: 'sqlite', total: asked ?? 30_000 },
        { database: 'mysql', total: asked ?? 15_000 },
      ]
  // TRAMITA_FUZZ_DATABASES=mysql (or sqlite) runs the plans of those databases only.
  const only = process.env.TRAMITA_FUZZ_DATABASES?.split(',')
  if (only) plans.splice(0, plans.length, ...plans.filter((p) => only.includes(p.database)))
  let passed = 0
  let failed = 0
  for (const plan of plans) {
    log(`seed ${seed}, ${plan.total} requests on ${plan.database}`)
    const server = await startServer({
      label: `fuzz-${plan.database}`,
      database: plan.database,
      // Behind a trusted proxy, so each junk request may come from its own address (see fuzz.mjs).
      env: { TRUSTED_PROXIES: '127.0.0.1', UPLOAD_MAX_MB: '1' },
    })
    let stats
    let errorLines
    try {
      stats = await fuzzServer({ server, total: plan.total, seed, log })
    } finally {
      // The server's own account of its failures (pino's level 50+), for a 5xx's cause.
      errorLines = server
        .output()
        .split('\n')
        .filter((line) => /"level":(5|6)\d/.test(line))
      await server.stop()
    }
    const rate = (stats.sent / (stats.ms / 1000)).toFixed(0)
    log(
      `${plan.database}: ${stats.sent} requests (+${stats.replayed} sent again alone) over ${stats.operations} operations in ${(stats.ms / 1000).toFixed(1)} s (${rate}/s); ` +
        `per role ${ROLES.map((r) => `${r} ${stats.perRole[r]}`).join(', ')}; answers ${JSON.stringify(stats.statuses)}; ` +
        `slowest ${stats.slowest.ms} ms (${stats.slowest.label}); sessions renewed ${stats.signIns}; ${(stats.checksumMs / 1000).toFixed(1)} s in fingerprints after batches` +
        (stats.background.length ? `; background changes (no request alone): ${stats.background.join(' | ')}` : '')
    )
    const checks = [
      ['at least the planned requests', stats.sent >= plan.total, `${stats.sent} < ${plan.total}`],
      ['no 5xx or broken answer', stats.serverErrors.length === 0, stats.serverErrors],
      ['no answer over 5 s', stats.hangs.length === 0, stats.hangs],
      ['no change by a refused request', stats.changedByRefused.length === 0, stats.changedByRefused],
    ]
    for (const [name, ok, detail] of checks) {
      if (ok) passed++
      else {
        failed++
        const list = Array.isArray(detail) ? detail : [detail]
        log(`FAILED ${plan.database}: ${name} (${list.length}):`)
        for (const item of list.slice(0, 40)) log(`  ${JSON.stringify(item)}`)
        if (name.includes('5xx')) for (const line of errorLines.slice(-10)) log(`  server: ${line.slice(0, 1500)}`)
      }
    }
  }
  return { passed, failed }
}
