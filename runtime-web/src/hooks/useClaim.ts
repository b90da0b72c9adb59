import { useCallback, useState } from 'react'
import { call } from '@tramita/web/api'
import type { PendingRow } from '../lib/inbox.js'
import { toasts } from '@tramita/web/toasts'

/**
 * Claim and release of a role or area step. Whatever the answer (taken by someone else meanwhile,
 * already done), the list is loaded again so it shows how things stand now.
 */
export function useClaim(reload: () => void) {
  const [acting, setActing] = useState<string | null>(null)
  const act = useCallback(
    async (action: 'claim' | 'release', row: PendingRow) => {
      setActing(row.token)
      try {
        const body = await call<{ message: string }>('PUT', `/inside/inbox/${action}`, { token: row.token })
        if (body.data?.message) toasts.success(body.data.message)
      } catch (error) {
        toasts.error(error instanceof Error ? error.message : 'Error')
      } finally {
        setActing(null)
        reload()
      }
    },
    [reload]
  )
  return {
    acting,
    claim: (row: PendingRow) => void act('claim', row),
    release: (row: PendingRow) => void act('release', row),
  }
}
