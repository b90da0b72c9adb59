import { Library } from './Library.js'

/** The library's 'trash' view. */
export default function RecycleBin() {
  return <Library view="trash" />
}
