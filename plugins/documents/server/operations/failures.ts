import { PluginFailure } from '@tramita/plugin-api'
import { OPERATION_CODES } from '../../shared/operations.js'

export type OperationKind = keyof Omit<typeof OPERATION_CODES, 'filed'>

/** A failure with the spec's code for the operation (001 §8) and the reason, for the client and the log. */
export function failure(kind: OperationKind, status: number, reason: string): PluginFailure {
  return new PluginFailure(`documents.${OPERATION_CODES[kind]}`, status, { reason })
}

/**
 * Runs `work`, turning another area's PluginFailure (a 404 of the access rule, a bad name, no room) into
 * the operation's code with the same status; the original key is kept as the reason.
 */
export async function asOperation<T>(kind: OperationKind, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PluginFailure && !error.message.startsWith(`documents.${OPERATION_CODES[kind]}`)) {
      throw failure(kind, error.status, error.message.replace(/^documents\./, ''))
    }
    throw error
  }
}
