import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { taskToken } from '#services/process/engine'

/** Issue 17: the assignee mail of a four-eyes step skips the members the rule bars from doing it. */
test.group('assignee mail: four-eyes', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  test('a four-eyes role step mails its other members, not the starter nor the previous step’s doer', async ({
    client,
    assert,
  }) => {
    // The approval step goes to the supervisor role, which all three below belong to.
    const form = await publishPermit()
    await makeUser({ username: 'iniciadora', role: 'supervisor', email: 'iniciadora@example.test' })
    const reviewer = await makeUser({ username: 'revisor', role: 'supervisor', email: 'revisor@example.test' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'otra', role: 'supervisor', email: 'otra@example.test' })

    const started = await client
      .post('/data/form/flows/process')
      .header('token', await tokenFor(client, 'iniciadora'))
      .form({ case: 'POST', data: form.key, flow_values: JSON.stringify({ nombre: 'Ana', dias: 2 }) })
    started.assertStatus(200)
    const { id, key_process: key, code_process: code } = started.body().data
    const review = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    const reviewed = await client
      .post('/data/form/asignar/process/info')
      .header('token', await tokenFor(client, 'revisor'))
      .form({
        case: 'POST',
        key_process: key,
        token: taskToken(review.id),
        flow_values: JSON.stringify({ observacion: 'Completo' }),
      })
    reviewed.assertStatus(200)
    const approval = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    assert.equal(approval.step_id, 'aprobacion')
    assert.isTrue(Boolean(approval.four_eyes))

    // One message carries every recipient: once it reached one member, the others are known.
    const isApproval = (text: string) => text.includes(code) && text.includes('/forms/approve')
    await waitForMail('otra@example.test', (m) => isApproval(m.text))
    assert.lengthOf(
      mailsTo('iniciadora@example.test').filter((m) => isApproval(m.text)),
      0
    )
    assert.lengthOf(
      mailsTo('revisor@example.test').filter((m) => isApproval(m.text)),
      0
    )
  })
})
