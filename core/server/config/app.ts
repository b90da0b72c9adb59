import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/core/http'
import proxyAddr from 'proxy-addr'

export const appKey = env.get('APP_KEY')

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  // X-Forwarded-For is believed only from the proxies named in TRUSTED_PROXIES: otherwise any client
  // could pick the address that per-address sign-in limits count.
  trustProxy: env.get('TRUSTED_PROXIES')
    ? proxyAddr.compile(
        env
          .get('TRUSTED_PROXIES')!
          .split(',')
          .map((s) => s.trim())
      )
    : () => false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
