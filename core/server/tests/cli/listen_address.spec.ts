import { test } from '@japa/runner'
import { hashTypedPassword } from '#lib/password'
import {
  NOT_ABOUT_THE_DATABASE,
  SERVER_ROOT,
  TRAMITA_BIN,
  freePort,
  runCli,
  startProcess,
  waitForHttp,
} from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'

/**
 * Where `serve` listens: this machine unless HOST says otherwise, and never another address while a
 * demo account still has the password printed in the README.
 */
test.group('tramita serve: listen address', () => {
  test('HOST=0.0.0.0 is refused while a demo account has the README password, and accepted once changed', async ({
    assert,
    cleanup,
  }) => {
    const db = childDatabase('cli-listen')
    cleanup(() => db.drop())
    // The child hashes with the same pepper as this process (APP_KEY), so the test can set a password.
    const env = {
      ...db.env,
      APP_KEY: process.env.APP_KEY,
      PASSWORD_PEPPER: process.env.PASSWORD_PEPPER,
      LOG_LEVEL: 'info',
    }
    assert.equal((await runCli(['migrate'], env)).code, 0)
    assert.equal((await runCli(['seed', '--demo'], env)).code, 0)

    const port = await freePort()
    const refused = await runCli(['serve', '--port', String(port)], { ...env, HOST: '0.0.0.0' })
    assert.equal(refused.code, 1, refused.output)
    assert.equal(
      refused.output.trim().split('\n').at(-1),
      "tramita: refusing to listen on 0.0.0.0: the demo account(s) admin, supervisor, teacher, student still have the README's password; change it (or remove them), or listen on 127.0.0.1"
    )

    // One account left with it is still refused; none, and the server starts on every interface.
    const changed = await hashTypedPassword('Otra-clave-2026!')
    await db.query("update users set password_hash = ? where username <> 'student'", [changed])
    const stillOne = await runCli(['serve', '--port', String(port)], { ...env, HOST: '0.0.0.0' })
    assert.equal(stillOne.code, 1)
    assert.include(stillOne.output, 'the demo account(s) student still have')
    await db.query('update users set password_hash = ?', [changed])
    const server = startProcess(
      [TRAMITA_BIN, 'serve', '--port', String(port)],
      { ...env, HOST: '0.0.0.0' },
      SERVER_ROOT
    )
    cleanup(async () => void (await server.stop()))
    await waitForHttp(port, server)
    assert.include(server.output(), `started HTTP server on 0.0.0.0:${port}`)
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('without HOST it listens on 127.0.0.1, demo password or not', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-loopback')
    cleanup(() => db.drop())
    const port = await freePort()
    const server = startProcess(
      [TRAMITA_BIN, 'serve', '--migrate', '--seed-demo', '--port', String(port)],
      { ...db.env, HOST: undefined, LOG_LEVEL: 'info' },
      SERVER_ROOT
    )
    cleanup(async () => void (await server.stop()))
    await waitForHttp(port, server)
    assert.include(server.output(), `started HTTP server on 127.0.0.1:${port}`)
  }).skip(...NOT_ABOUT_THE_DATABASE)
})
