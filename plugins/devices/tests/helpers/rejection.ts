import { DeviceError } from '../../agent/drivers/errors.js'

/** The DeviceError a driver call fails with; anything else (success included) fails the test. */
export async function deviceError(call: Promise<unknown>): Promise<DeviceError> {
  try {
    await call
  } catch (error) {
    if (error instanceof DeviceError) return error
    throw error
  }
  throw new Error('expected a DeviceError: the call succeeded')
}
