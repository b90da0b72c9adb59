import { existsSync, globSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Seconds per test file (relative to core/server), as `TRAMITA_RECORD_WEIGHTS=1 npm test` last measured them. */
export const WEIGHTS_FILE = resolve(import.meta.dirname, '..', 'shard_weights.json')

/**
 * TRAMITA_SHARD=k/n: the k-th of n disjoint parts of a suite's files, so that n runner processes (each
 * with its own server, database and port) share a suite that mostly waits on a browser. Files go
 * longest first to the part with the least time so far, by their measured time (WEIGHTS_FILE; a file
 * not measured yet counts as the median): every process computes the same split. A stale weight
 * only unbalances the parts; every file still runs in exactly one.
 */
export function shardFiles(patterns: string[], shard: string, cwd: string): () => URL[] {
  const match = /^(\d+)\/(\d+)$/.exec(shard)
  const [k, n] = match ? [Number(match[1]), Number(match[2])] : [0, 0]
  if (!(n >= 1 && k >= 1 && k <= n)) throw new Error(`TRAMITA_SHARD must be k/n with 1 ≤ k ≤ n, not '${shard}'`)
  return () => {
    const files = [...new Set(patterns.flatMap((pattern) => globSync(pattern, { cwd })))]
    return split(files, readWeights(cwd), n)[k - 1].map((file) => pathToFileURL(resolve(cwd, file)))
  }
}

/** The files in n parts of about equal total weight (longest processing time first). */
export function split(files: string[], weights: Record<string, number>, n: number): string[][] {
  const known = Object.values(weights).sort((a, b) => a - b)
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 1
  const weighed = files
    .map((file) => ({ file, weight: weights[file] ?? fallback }))
    .sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file))
  const parts = Array.from({ length: n }, () => ({ weight: 0, files: [] as string[] }))
  for (const { file, weight } of weighed) {
    const lightest = parts.reduce((best, part) => (part.weight < best.weight ? part : best))
    lightest.weight += weight
    lightest.files.push(file)
  }
  return parts.map((part) => part.files.sort())
}

/** The recorded weights, keyed by path relative to `cwd`. */
function readWeights(cwd: string): Record<string, number> {
  if (!existsSync(WEIGHTS_FILE)) return {}
  const recorded = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')) as Record<string, number>
  const base = resolve(import.meta.dirname, '..', '..')
  return Object.fromEntries(
    Object.entries(recorded).map(([file, seconds]) => [relative(cwd, resolve(base, file)), seconds])
  )
}
