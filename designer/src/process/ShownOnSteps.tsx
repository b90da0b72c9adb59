import { useTranslation } from 'react-i18next'
import { START_TASK } from '@tramita/contract'
import { itemLabel, setShownOnSteps, type Command, type DesignDocument } from '../model/index.js'

/**
 * Which fields each step shows (show_on_task): a table of fields by steps, the starter's form first.
 * A field with no step ticked shows on every step, as the runtime reads it.
 */
export function ShownOnSteps({ doc, apply }: { doc: DesignDocument; apply: (command: Command) => void }) {
  const { t } = useTranslation()
  const steps = [
    { id: START_TASK, label: t('process.start_task') },
    ...((doc.process.steps ?? []) as { id: string; label?: string }[]).map((s) => ({
      id: s.id,
      label: s.label || s.id,
    })),
  ]
  const items = [...doc.jsonconfig.fields, ...doc.jsonconfig.elements]
  if (items.length === 0) return null
  return (
    <fieldset className="process-shown" data-testid="shown-on-steps">
      <legend>{t('process.shown_title')}</legend>
      <p className="process-note">{t('process.shown_note')}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('process.field')}</th>
            {steps.map((s) => (
              <th key={s.id} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const shown = Array.isArray(item.show_on_task) ? (item.show_on_task as string[]) : []
            const label = itemLabel(item) || item.field_name
            return (
              <tr key={item.field_name}>
                <th scope="row">{label}</th>
                {steps.map((s) => (
                  <td key={s.id}>
                    <input
                      type="checkbox"
                      aria-label={t('process.shown_on', { field: label, step: s.label })}
                      checked={shown.includes(s.id)}
                      onChange={(e) =>
                        apply(
                          setShownOnSteps(
                            item.field_name,
                            e.target.checked ? [...shown, s.id] : shown.filter((id) => id !== s.id)
                          )
                        )
                      }
                    />
                  </td>
                ))}
              </tr>
            )
          })}
        </tbody>
      </table>
    </fieldset>
  )
}
