/** Removes a stored value so the type's default applies again. */
import { useTexts } from './panel_context.js'

export function ResetButton({ name, onReset }: { name: string; onReset: () => void }) {
  const texts = useTexts()
  return (
    <button
      type="button"
      className="panel-reset"
      onClick={onReset}
      title={texts.tv('panel.reset_named', { name })}
      aria-label={texts.tv('panel.reset_named', { name })}
    >
      {texts.t('panel.reset')}
    </button>
  )
}
