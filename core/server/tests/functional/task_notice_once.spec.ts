import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { waitUntil } from '#tests/helpers/wait'
import { taskNoticeJob } from '#services/process/notices'
import { KEEP_JOB_EFFECTS_DAYS, pruneJobEffectsJob } from '#services/maintenance_jobs'

/** Issue 17 item 4: the assignee mail job run again (a retry, a dead worker) sends no second mail. */
test.group('assignee mail: once per task', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  test('the mail job run again for the same task mails nobody twice', async ({ client, assert }) => {
    const form = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const started = await client
      .post('/data/form/flows/process')
      .header('token', await tokenFor(client, 'solicitante'))
      .form({
        case: 'POST',
        data: form.key,
        flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' }),
      })
    started.assertStatus(200)
    const { id, code_process: code } = started.body().data
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').first()

    // The save's own run (staged in its transaction, queued after the commit) sends the mail and records it.
    await waitForMail('revisora@example.test', (m) => m.text.includes(code))
    const key = `task-notice:${task.id}`
    await waitUntil(async () => (await db.from('job_effects').where('effect_key', key).first()) !== null)

    // Two more runs, as after a worker killed once the mail had left.
    assert.deepEqual(await taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), { sent: 0 })
    assert.deepEqual(await taskNoticeJob.handle({ taskId: task.id, lang: 'es' }), { sent: 0 })

    assert.lengthOf(
      mailsTo('revisora@example.test').filter((m) => m.text.includes(code)),
      1
    )
    const logged = await db.from('activities').where('task_id', task.id).where('type', 'email').count('* as n').first()
    assert.equal(Number(logged.n), 1)
    assert.isNull(await db.from('job_outbox').where('idempotency_key', key).first())
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
})
