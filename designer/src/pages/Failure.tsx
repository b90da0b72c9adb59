import type { JsonCallError } from '@tramita/web/json-call'
import { SignInNeeded } from './SignInNeeded.js'

/** A refused call: an ended session asks to sign in again; anything else shows the server's message. */
export function Failure({ error }: { error: JsonCallError }) {
  if (error.unauthorized) return <SignInNeeded />
  return (
    <p className="notice notice--error" role="alert" data-testid="failure">
      {error.message}
    </p>
  )
}
