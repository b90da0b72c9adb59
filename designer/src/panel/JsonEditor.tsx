/** Any other value, as JSON: stored when it parses, flagged while it does not. */
import type { LeafProps } from './leaf.js'
import { parseJson } from './values.js'
import { useDraft } from './use_draft.js'
import { useTexts } from './panel_context.js'

export function JsonEditor({ shared, input, placeholder, commit }: LeafProps) {
  const texts = useTexts()
  const draft = useDraft(shared.value === undefined ? '' : JSON.stringify(shared.value, null, 2))
  const parsed = parseJson(draft.text)
  const errorId = `${input.id}-json`
  const describedBy = [input['aria-describedby'], parsed.ok ? undefined : errorId].filter(Boolean).join(' ')
  return (
    <>
      <textarea
        {...input}
        aria-describedby={describedBy || undefined}
        aria-invalid={input['aria-invalid'] || !parsed.ok || undefined}
        className="panel-code"
        rows={3}
        spellCheck={false}
        value={draft.text}
        placeholder={placeholder}
        onChange={(event) => {
          draft.type(event.target.value)
          const next = parseJson(event.target.value)
          if (next.ok) commit(next.value)
        }}
        onBlur={() => {
          if (parseJson(draft.text).ok) draft.done()
        }}
      />
      {parsed.ok ? null : (
        <small id={errorId} className="panel-problems" role="alert">
          {texts.t('panel.json_invalid')}
        </small>
      )}
    </>
  )
}
