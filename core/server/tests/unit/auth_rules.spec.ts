import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { checkPasswordPolicy, isCommonPassword } from '#lib/password_policy'
import { OutboxTransport } from '#mail/outbox_transport'
import { dataSubdir } from '#lib/paths'
import { buildTree } from '#services/users'

test.group('password policy', () => {
  test('common passwords are refused, with their usual decorations', ({ assert }) => {
    for (const p of ['password', 'Password1!', 'QWERTY123', 'iloveyou!!']) assert.isTrue(isCommonPassword(p), p)
    for (const p of ['Tramita#2026', 'Nueva#Clave2027', 'Ñandú-大象-7x']) assert.isFalse(isCommonPassword(p), p)
  })

  test('the spec rules, the blocklist and the length cap together', ({ assert }) => {
    assert.deepEqual(checkPasswordPolicy('Nueva#Clave2027', 'Nueva#Clave2027'), { ok: true, failed: [] })
    assert.includeMembers(checkPasswordPolicy('Password1!', 'Password1!').failed, ['common'])
    assert.includeMembers(checkPasswordPolicy('A1#' + 'xy'.repeat(200), 'A1#' + 'xy'.repeat(200)).failed, ['too_long'])
    assert.includeMembers(checkPasswordPolicy('abc', '').failed, [
      'min_length',
      'uppercase',
      'digit',
      'symbol',
      'confirmation',
    ])
  })
})

test.group('mail outbox', () => {
  test('without SMTP a message is written as an .eml file in the data dir', async ({ assert }) => {
    const before = new Set(await readdir(dataSubdir('outbox')))
    await new OutboxTransport().send({
      from: 'a@example.test',
      to: 'b@example.test',
      subject: 'Hola',
      text: 'Cuerpo ñ',
    } as never)
    const added = (await readdir(dataSubdir('outbox'))).filter((f) => !before.has(f))
    assert.lengthOf(added, 1)
    const raw = await readFile(`${dataSubdir('outbox')}/${added[0]}`, 'utf8')
    assert.include(raw, 'Subject: Hola')
    assert.include(raw, 'To: b@example.test')
  })
})

test.group('user tree', () => {
  test('parents nest children; a cycle in the data becomes roots', ({ assert }) => {
    const u = (id: number, parentId: number | null) => ({
      id,
      username: `u${id}`,
      firstName: '',
      lastName: '',
      parentId,
    })
    const tree = buildTree([u(1, null), u(2, 1), u(3, 2), u(4, 5), u(5, 4)])
    assert.deepEqual(
      tree.map((n) => n.id),
      [1, 4, 5]
    )
    assert.equal(tree[0].children[0].children[0].id, 3)
  })
})
