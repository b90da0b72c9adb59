/**
 * The text of a box while it is being typed in: what the user types stays as typed (a half-written
 * number, "pdf, " in a list) while the parsed value is stored; leaving the box shows the stored value.
 */
import { useState } from 'react'

export function useDraft(stored: string) {
  const [draft, setDraft] = useState<string | null>(null)
  return {
    text: draft ?? stored,
    type: (text: string) => setDraft(text),
    done: () => setDraft(null),
  }
}
