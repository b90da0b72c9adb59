/**
 * The actions a field runs on one event (events.on_change...), chosen among the form's actions in
 * their order; a name stored that no action has stays listed (checked) until unchecked, so the
 * validation's "no action named" problem can be fixed here. None chosen removes the key.
 */
import type { LeafProps } from './leaf.js'

export function ActionNamesEditor({ shared, input, commit, names }: LeafProps & { names: readonly string[] }) {
  const stored = Array.isArray(shared.value) ? shared.value.map(String) : []
  const shown = [...names, ...stored.filter((name) => !names.includes(name))]
  const toggle = (name: string, on: boolean) => {
    // Kept in the order the actions are defined (then unknown names), as they run in list order.
    const next = shown.filter((one) => (one === name ? on : stored.includes(one)))
    commit(next.length > 0 ? next : undefined)
  }
  return (
    <div role="group" id={input.id} aria-describedby={input['aria-describedby']} className="panel-action-names">
      {shown.length === 0 ? <span className="panel-note">—</span> : null}
      {shown.map((name) => (
        <label key={name}>
          <input
            type="checkbox"
            checked={stored.includes(name)}
            disabled={shared.mixed}
            onChange={(event) => toggle(name, event.target.checked)}
          />{' '}
          {name}
        </label>
      ))}
    </div>
  )
}
