import { randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { RunLater } from '#jobs/run_later'

/**
 * Effects a job has outside the database (a mail sent), by key in `job_effects`, so that a job run
 * twice (a retry, a dead worker, a stalled job run again beside the first) has the effect once.
 *
 * A run claims the effect before it happens (performClaimed); only the holder performs it, then records
 * it done (recordPerformed), or releases the claim when the effect failed. A
 * claim left by a run that died expires after CLAIM_MS, and a later retry takes it over. A run that
 * dies between the effect and its record still repeats it once that claim expires (at-least-once in
 * that window); two live runs never both perform it.
 */
export const CLAIM_MS = 60_000

/**
 * Another live run holds the effect's claim: this run is put off until the claim expires (without
 * spending an attempt: a run that died holding it would otherwise cost its retries their turn).
 */
export class EffectBusy extends RunLater {
  constructor(key: string, claimedUntil: Date) {
    super(claimedUntil.getTime(), `another run is performing ${key}`)
  }
}

export async function effectDone(key: string): Promise<boolean> {
  return (await db.from('job_effects').where('effect_key', key).whereNull('claimed_until').first()) !== null
}

/**
 * The run's claim (a token) when it may perform the effect; null when the effect is done already.
 * Throws EffectBusy while another run holds it.
 */
async function claimEffect(key: string): Promise<string | null> {
  const claim = randomBytes(12).toString('hex')
  const now = new Date()
  const until = new Date(now.getTime() + CLAIM_MS)
  await db
    .knexQuery()
    .table('job_effects')
    .insert({ effect_key: key, created_at: now, claim, claimed_until: until })
    .onConflict('effect_key')
    .ignore()
  // An expired claim (its run died before the effect's record) is taken over.
  await db
    .from('job_effects')
    .where('effect_key', key)
    .whereNotNull('claimed_until')
    .where('claimed_until', '<', now)
    .update({ claim, claimed_until: until })
  const row = await db.from('job_effects').where('effect_key', key).first()
  if (!row || row.claimed_until === null) return null
  if (row.claim !== claim) throw new EffectBusy(key, new Date(row.claimed_until))
  return claim
}

/**
 * Performs `effect` under the key's claim: false, and nothing done, when it is done already. An effect
 * that throws did not happen (the mail server refused it): the claim goes, so a retry may claim again.
 * The caller records it done (recordPerformed) right after, with the writes that go with it.
 */
export async function performClaimed(key: string, effect: () => Promise<void>): Promise<boolean> {
  const claim = await claimEffect(key)
  if (claim === null) return false
  try {
    await effect()
  } catch (error) {
    await db.from('job_effects').where('effect_key', key).where('claim', claim).whereNotNull('claimed_until').delete()
    throw error
  }
  return true
}

/** Records the effect done, in `client`'s transaction when it has one (claimed before, or not). */
async function recordEffect(client: QueryClientContract, key: string): Promise<void> {
  await client
    .knexQuery()
    .table('job_effects')
    .insert({ effect_key: key, created_at: new Date(), claim: null, claimed_until: null })
    .onConflict('effect_key')
    .merge({ claimed_until: null })
}

/** How long a performed effect's record is retried while the database is away (a restart takes seconds). */
export const RECORD_RETRY_MS = 30_000

/**
 * Records a performed effect (and `more`, the writes that go with it) in one transaction, retried each
 * second for RECORD_RETRY_MS: the effect has happened, so failing the job would have a retry repeat it
 * once the claim expires. Rejects when the database stayed away all that time.
 */
export async function recordPerformed(
  key: string,
  more: (trx: QueryClientContract) => Promise<void> = async () => {},
  retryMs = RECORD_RETRY_MS
): Promise<void> {
  const deadline = Date.now() + retryMs
  for (;;) {
    try {
      await db.transaction(async (trx) => {
        await recordEffect(trx, key)
        await more(trx)
      })
      return
    } catch (error) {
      if (Date.now() >= deadline) throw error
      await new Promise((r) => setTimeout(r, 1000))
    }
  }
}
