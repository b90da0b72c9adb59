import { useTranslation } from 'react-i18next'
import { PAGE_SIZES, pageCount } from '../../lib/inbox.js'

interface PagerProps {
  page: number
  perPage: number
  total: number
  onPage: (page: number) => void
  onPerPage: (perPage: number) => void
}

/** Previous / next, where we are, and rows per page (spec 000 §9: 10, 20, 30). */
export function Pager({ page, perPage, total, onPage, onPerPage }: PagerProps) {
  const { t } = useTranslation()
  const pages = pageCount(total, perPage)
  return (
    <nav className="users__pager" aria-label={t('inbox.page', { page, pages, total })} data-testid="inbox-pager">
      <button
        type="button"
        className="button"
        aria-label={t('inbox.previous')}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        ‹
      </button>
      <span aria-live="polite">{t('inbox.page', { page, pages, total })}</span>
      <button
        type="button"
        className="button"
        aria-label={t('inbox.next')}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        ›
      </button>
      <label className="inbox__per-page">
        {t('inbox.per_page')}
        <select value={perPage} onChange={(e) => onPerPage(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </nav>
  )
}
