import { useTranslation } from 'react-i18next'

export type EditorView = 'form' | 'logic' | 'process' | 'preview' | 'json' | 'versions'
const VIEWS: EditorView[] = ['form', 'logic', 'process', 'preview', 'json', 'versions']

/** What the editor shows: the form's canvas, its logic, its process, a preview, its JSON, or a comparison of its versions. */
export function ViewTabs({ view, onView }: { view: EditorView; onView: (view: EditorView) => void }) {
  const { t } = useTranslation()
  return (
    <div className="view-tabs" role="tablist" aria-label={t('view.title')}>
      {VIEWS.map((one) => (
        <button
          key={one}
          type="button"
          role="tab"
          aria-selected={view === one}
          data-testid={`view-${one}`}
          onClick={() => onView(one)}
        >
          {t(`view.${one}`)}
        </button>
      ))}
    </div>
  )
}
