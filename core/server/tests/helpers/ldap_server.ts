import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'ldapts'
import { waitUntil } from '#tests/helpers/wait'

/**
 * A real OpenLDAP server (Debian's slapd) for the directory sign-in tests, started by bin/test.ts
 * in a temporary folder on a free port, with the people the tests bind as.
 */
export const LDAP_SUFFIX = 'dc=tramita,dc=test'
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`
const ADMIN_PASSWORD = 'ldap-admin-secret'
export const LDAP_PEOPLE: Record<string, string> = { lina: 'Directorio#2026', 'o,brien': 'Coma#Segura2026' }

const SLAPD = '/usr/sbin/slapd'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))
      )
    })
  })
}

export function slapdInstalled(): boolean {
  return existsSync(SLAPD)
}

export async function startLdapServer(): Promise<{ url: string; userDn: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'tramita-slapd-'))
  mkdirSync(join(dir, 'db'))
  writeFileSync(
    join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${join(dir, 'slapd.pid')}`,
      'database mdb',
      'maxsize 10485760',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${ADMIN_PASSWORD}`,
      `directory ${join(dir, 'db')}`,
      '',
    ].join('\n')
  )
  const port = await freePort()
  const url = `ldap://127.0.0.1:${port}`
  const child: ChildProcess = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], {
    stdio: 'ignore',
  })
  const stop = () => {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stop)
  const client = new Client({ url, connectTimeout: 1000 })
  let refusal = ''
  const bound = async () => {
    try {
      await client.bind(LDAP_ADMIN_DN, ADMIN_PASSWORD)
      return true
    } catch (error) {
      refusal = (error as Error).message
      return false
    }
  }
  await waitUntil(bound, 10_000, () => `slapd answering on ${url} (last refusal: ${refusal})`, 100)
  await client.add(LDAP_SUFFIX, { objectClass: ['top', 'dcObject', 'organization'], dc: 'tramita', o: 'Tramita' })
  await client.add(`ou=people,${LDAP_SUFFIX}`, { objectClass: ['top', 'organizationalUnit'], ou: 'people' })
  for (const [uid, password] of Object.entries(LDAP_PEOPLE)) {
    await client.add(`uid=${uid.replace(',', '\\,')},ou=people,${LDAP_SUFFIX}`, {
      objectClass: ['top', 'inetOrgPerson'],
      uid,
      cn: uid,
      sn: uid,
      userPassword: password,
    })
  }
  await client.unbind()
  return { url, userDn: `uid={user},ou=people,${LDAP_SUFFIX}`, stop }
}
