import { Library } from './Library.js'

/** The library's 'shared' view. */
export default function SharedWithMe() {
  return <Library view="shared" />
}
