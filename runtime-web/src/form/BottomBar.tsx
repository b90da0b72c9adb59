/**
 * The bottom bar per case (spec 000 §2): previous and next between navigable pages, send (new, enter),
 * save (edit, and while editing values), take decision (approve) and edit values (when the server's
 * may_edit_values says so: see for user 1 and administrators, always in approve). Fixed only when the page asks (pagebar) or in the approve and see cases.
 */
import { useTranslation } from 'react-i18next'
import { useForm, useFormSnapshot } from './context.js'

export interface BottomBarProps {
  /** Whether this user may switch on "edit values". */
  mayEditValues: boolean
  saving: boolean
  onSend(): void
  onSave(): void
  onDecide(): void
  onToggleEdit(): void
}

/** Turns the page, then moves the focus to the new page: the keyboard goes on from its top. */
function turnPage(move: () => void) {
  move()
  requestAnimationFrame(() => document.querySelector<HTMLElement>('.fpages .fpage')?.focus())
}

export function BottomBar({ mayEditValues, saving, onSend, onSave, onDecide, onToggleEdit }: BottomBarProps) {
  const { t } = useTranslation()
  const { store } = useForm()
  // What the bar shows depends on the page, on "edit values" and on which pages have something shown.
  useFormSnapshot(store, (s) => `${s.pagePositionNow()}:${s.isEditing()}:${JSON.stringify(s.pageNumber())}`)
  const mode = store.mode
  const wizard = store.config.form.display === 'wizard'
  const numbers = store.pageNumber()
  const page = store.config.form.pages[store.currentPage()]
  const fixed = Boolean(page?.style.pagebar) || mode === 'approve' || mode === 'see'
  const last = !wizard || store.isLastPage()
  const editing = store.isEditing()
  const entry = mode === 'new' || mode === 'enter'
  return (
    <nav className={`fbar${fixed ? ' fbar--fixed' : ''}`} aria-label={t('form_runtime.bar')} data-testid="form-bar">
      {wizard && numbers.pages > 1 && (
        <span className="fbar__pages" aria-live="polite">
          {t('form_runtime.page_of', numbers)}
        </span>
      )}
      <div className="fbar__buttons">
        {wizard && numbers.page > 1 && (
          <button type="button" className="button button--ghost" onClick={() => turnPage(() => store.previous())}>
            {t('form_runtime.previous')}
          </button>
        )}
        {wizard && !store.isLastPage() && (
          <button type="button" className="button" onClick={() => turnPage(() => store.next())}>
            {t('form_runtime.next')}
          </button>
        )}
        {entry && last && (
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={onSend}
            data-testid="form-send"
          >
            {saving ? t('form_runtime.sending') : t('form_runtime.send')}
          </button>
        )}
        {(mode === 'edit' || (mode === 'see' && editing)) && (
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={onSave}
            data-testid="form-save"
          >
            {saving ? t('form_runtime.sending') : t('form_runtime.save')}
          </button>
        )}
        {mode === 'approve' && (
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={onDecide}
            data-testid="form-decide"
          >
            {t('form_runtime.take_decision')}
          </button>
        )}
        {(mode === 'approve' || mode === 'see') && mayEditValues && (
          <button
            type="button"
            className="button button--ghost"
            aria-pressed={editing}
            onClick={onToggleEdit}
            data-testid="form-edit-values"
          >
            {editing ? t('form_runtime.stop_editing') : t('form_runtime.edit_values')}
          </button>
        )}
      </div>
    </nav>
  )
}
