import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * Effects a job has had outside the database (a mail sent), recorded by key in `job_effects`, so a
 * run repeated after a retry, a dead worker or a duplicate enqueue finds the effect done and skips it.
 * The record is written right after the effect: a run that dies between the two repeats the effect
 * (at-least-once in that window); once recorded, it is never repeated (at-most-once after that).
 */
export async function effectDone(key: string): Promise<boolean> {
  return (await db.from('job_effects').where('effect_key', key).first()) !== null
}

/** Records the effect; a second record of the same key (two runs at once) is ignored. */
export async function recordEffect(client: QueryClientContract, key: string): Promise<void> {
  await client
    .knexQuery()
    .table('job_effects')
    .insert({ effect_key: key, created_at: new Date() })
    .onConflict('effect_key')
    .ignore()
}
