import { useTranslation } from 'react-i18next'
import { NO_FILTERS, stateChoices, type FilterOptions, type Filters } from '../../lib/inbox.js'

interface InboxFiltersProps {
  value: Filters
  options: FilterOptions | null
  onChange: (next: Filters) => void
}

/** Search by code or process, and filters by process, state and date range. */
export function InboxFilters({ value, options, onChange }: InboxFiltersProps) {
  const { t } = useTranslation()
  const set = (patch: Partial<Filters>) => onChange({ ...value, ...patch })
  const states = stateChoices(options, value.process)
  return (
    <form
      className="inbox__filters"
      role="search"
      aria-label={t('inbox.filters')}
      data-testid="inbox-filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="inbox__search">
        <span className="visually-hidden">{t('inbox.search')}</span>
        <input
          type="search"
          name="search"
          placeholder={t('inbox.search')}
          value={value.search}
          maxLength={100}
          onChange={(e) => set({ search: e.target.value })}
        />
      </label>
      <label>
        {t('inbox.process')}
        <select
          name="process"
          value={value.process}
          // A state of another process may not exist in this one.
          onChange={(e) => set({ process: e.target.value, state: '' })}
        >
          <option value="">{t('inbox.all_processes')}</option>
          {options?.processes.map((p) => (
            <option key={p.key} value={p.key}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('inbox.state')}
        <select name="state" value={value.state} onChange={(e) => set({ state: e.target.value })}>
          <option value="">{t('inbox.all_states')}</option>
          {states.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('inbox.from')}
        <input
          type="date"
          name="from"
          value={value.from}
          max={value.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
        />
      </label>
      <label>
        {t('inbox.to')}
        <input
          type="date"
          name="to"
          value={value.to}
          min={value.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </label>
      <button type="button" className="link" onClick={() => onChange(NO_FILTERS)}>
        {t('inbox.clear')}
      </button>
    </form>
  )
}
