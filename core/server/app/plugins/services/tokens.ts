import type { PluginTokens } from '@tramita/plugin-api'
import { hashPassword, verifyPassword } from '#lib/password'
import { hashToken, newToken } from '#lib/tokens'

/** The core's secret tokens (256 random bits, SHA-256 stored) and password hashing (argon2id + pepper). */
export function pluginTokens(): PluginTokens {
  return {
    create() {
      const token = newToken()
      return { token, hash: hashToken(token) }
    },
    hash: (token) => hashToken(token),
    hashPassword: (password) => hashPassword(password),
    verifyPassword: (hash, password) => verifyPassword(hash, password),
  }
}
