import { constants, createPrivateKey, generateKeyPairSync, privateDecrypt } from 'node:crypto'
import { DateTime } from 'luxon'
import { Client } from 'ldapts'
import db from '@adonisjs/lucid/services/db'
import encryption from '@adonisjs/core/services/encryption'
import env from '#start/env'

/**
 * Directory (LDAP) sign-in (spec 000 §7 validate/ldap): for a directory user the browser encrypts
 * the typed password with the server's RSA public key (RSA-OAEP, SHA-256) instead of hashing it,
 * and the server binds to LDAP_URL as LDAP_USER_DN with that password. The key pair is made once,
 * stored in `server_keys` with the private half encrypted by the app key, and shared by every node.
 */
const KEY_NAME = 'directory-rsa'

let cached: Promise<{ publicPem: string; privatePem: string }> | undefined

async function keyPair() {
  cached ??= (async () => {
    let row = await db.from('server_keys').where('name', KEY_NAME).first()
    if (!row) {
      const pair = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      })
      // Two nodes may race here; the primary key keeps one pair and the loser reads it back.
      await db
        .table('server_keys')
        .insert({
          name: KEY_NAME,
          public_pem: pair.publicKey,
          private_encrypted: encryption.encrypt(pair.privateKey, undefined, KEY_NAME),
          created_at: DateTime.now().toSQL({ includeOffset: false }),
        })
        .catch(() => undefined)
      row = await db.from('server_keys').where('name', KEY_NAME).firstOrFail()
    }
    const privatePem = encryption.decrypt<string>(row.private_encrypted, KEY_NAME)
    if (!privatePem) throw new Error('The directory key cannot be read with this APP_KEY')
    return { publicPem: row.public_pem as string, privatePem }
  })()
  return cached
}

export function directoryConfigured(): boolean {
  return !!env.get('LDAP_URL') && !!env.get('LDAP_USER_DN')
}

export async function directoryPublicKey(): Promise<string> {
  return (await keyPair()).publicPem
}

/** The password the browser encrypted (base64 RSA-OAEP/SHA-256), or null when it cannot be read. */
export async function decryptDirectoryPassword(cipher: string): Promise<string | null> {
  if (!/^[A-Za-z0-9+/=]{16,1024}$/.test(cipher)) return null
  try {
    const key = createPrivateKey((await keyPair()).privatePem)
    return privateDecrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(cipher, 'base64')
    ).toString('utf8')
  } catch {
    return null
  }
}

/** Escapes a value for a DN attribute (RFC 4514), so a user name cannot change the DN's shape. */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replaceAll('\0', '\\00')
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ')
}

/** True when the directory accepts the user name and password (a simple bind as the user). */
export async function directoryBind(username: string, password: string): Promise<boolean> {
  if (!directoryConfigured() || !password) return false
  const dn = env.get('LDAP_USER_DN')!.replace('{user}', escapeDnValue(username))
  const client = new Client({ url: env.get('LDAP_URL')!, timeout: 5_000, connectTimeout: 5_000 })
  try {
    await client.bind(dn, password)
    return true
  } catch {
    return false
  } finally {
    await client.unbind().catch(() => undefined)
  }
}
