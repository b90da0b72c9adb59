import { Library } from './Library.js'

/** The library's 'recent' view. */
export default function Recent() {
  return <Library view="recent" />
}
