import { Library } from './Library.js'

/** The library's 'mine' view. */
export default function MyDocuments() {
  return <Library view="mine" />
}
