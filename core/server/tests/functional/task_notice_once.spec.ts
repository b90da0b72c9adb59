import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { waitUntil } from '#tests/helpers/wait'
import { taskNoticeJob } from '#services/process/notices'
import { KEEP_JOB_EFFECTS_DAYS, pruneJobEffectsJob } from '#services/maintenance_jobs'
import { CLAIM_MS, EffectBusy, effectDone, recordPerformed } from '#services/job_effects'

/** Issue 17 item 4: the assignee mail job run again (a retry, a dead worker) sends no second mail. */
test.group('assignee mail: once per task', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  /**
   * A case saved through the route, whose review step is the area's; resolves once the save's own run
   * of the mail job (staged in its transaction, queued after the commit) has sent the mail and recorded it.
   */
  async function noticedCase(client: Parameters<typeof tokenFor>[0], values: Record<string, unknown>) {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const started = await client
      .post('/data/form/flows/process')
      .header('token', await tokenFor(client, 'solicitante'))
      .form({ case: 'POST', data: form.key, flow_values: JSON.stringify(values) })
    started.assertStatus(200)
    const { id, code_process: code } = started.body().data
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    const key = `task-notice:${task.id}`
    await waitForMail('revisora@example.test', (m) => m.text.includes(code))
    await waitUntil(() => effectDone(key))
    const sentFor = () => mailsTo('revisora@example.test').filter((m) => m.text.includes(code)).length
    return { task, key, sentFor }
  }

  test('the mail job run again for the same task mails nobody twice', async ({ client, assert }) => {
    const { task, key, sentFor } = await noticedCase(client, { nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' })

    // Two more runs, as after a worker killed once the mail had left.
    assert.deepEqual(await taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), { sent: 0 })
    assert.deepEqual(await taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), { sent: 0 })

    assert.equal(sentFor(), 1)
    const logged = await db.from('activities').where('task_id', task.id).where('type', 'email').count('* as n').first()
    assert.equal(Number(logged.n), 1)
    // Its outbox row goes once the job has ended.
    await waitUntil(async () => !(await db.from('job_outbox').where('idempotency_key', key).first()))
  })

  test('two runs at once (a stalled job run again beside the first) send one mail; a dead run’s claim is taken over', async ({
    client,
    assert,
  }) => {
    const { task, key, sentFor } = await noticedCase(client, { nombre: 'Ana', dias: 1, motivo: 'Trámite' })

    // As if that mail had never gone: two runs side by side. One sends; the other finds it claimed.
    await db.from('job_effects').where('effect_key', key).delete()
    const runs = await Promise.allSettled([
      taskNoticeJob.handle({ taskId: task.id, lang: 'es' }),
      taskNoticeJob.handle({ taskId: task.id, lang: 'es' }),
    ])
    const sent = runs.filter((r) => r.status === 'fulfilled' && r.value.sent === 1)
    assert.lengthOf(sent, 1, JSON.stringify(runs))
    const other = runs.find((r) => !(r.status === 'fulfilled' && r.value.sent === 1))!
    if (other.status === 'rejected') assert.instanceOf(other.reason, EffectBusy)
    else assert.deepEqual(other.value, { sent: 0 })
    await waitUntil(async () => sentFor() === 2)

    // A claim whose run died (expired) is taken over by the retry; a live one makes the retry wait.
    await db.from('job_effects').where('effect_key', key).delete()
    await db.table('job_effects').insert({
      effect_key: key,
      created_at: new Date(),
      claim: 'a-run-that-is-alive',
      claimed_until: new Date(Date.now() + CLAIM_MS),
    })
    await assert.rejects(() => taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), /another run is performing/)
    await db
      .from('job_effects')
      .where('effect_key', key)
      .update({ claimed_until: new Date(Date.now() - 1000) })
    assert.deepEqual(await taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), { sent: 1 })
    await waitUntil(async () => sentFor() === 3)
    assert.isNull((await db.from('job_effects').where('effect_key', key).first()).claimed_until)
  })

  test('the hourly maintenance forgets effects older than the queue could run again', async ({ assert }) => {
    await db.from('job_effects').delete()
    const old = new Date(Date.now() - (KEEP_JOB_EFFECTS_DAYS + 1) * 86_400_000)
    await db.table('job_effects').multiInsert([
      { effect_key: 'task-notice:old', created_at: old },
      { effect_key: 'task-notice:new', created_at: new Date() },
    ])
    assert.deepEqual(await pruneJobEffectsJob.handle(), { deleted: 1 })
    const left = await db.from('job_effects').select('effect_key')
    assert.deepEqual(
      left.map((r) => r.effect_key),
      ['task-notice:new']
    )
  })

  // Issue 22: the database away just after the mail went (a MariaDB restart): the record waits for it,
  // since failing the job would have its retry mail again.
  test('a performed effect is recorded once the database answers again, within RECORD_RETRY_MS', async ({ assert }) => {
    await db.from('job_effects').delete()
    let refusals = 2
    await recordPerformed('prueba:registro', async (trx) => {
      if (refusals-- > 0) throw new Error('Connection lost: The server closed the connection.')
      await trx.from('job_effects').where('effect_key', 'prueba:registro').first()
    })
    assert.isTrue(await effectDone('prueba:registro'))
    await assert.rejects(
      () =>
        recordPerformed(
          'prueba:nunca',
          async () => {
            throw new Error('Connection lost')
          },
          1500
        ),
      /Connection lost/
    )
    assert.isFalse(await effectDone('prueba:nunca'))
  })
})
