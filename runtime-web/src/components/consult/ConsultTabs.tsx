import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { searchRows, type FieldRow, type FileLink } from '../../lib/consultation.js'
import { DocumentList } from './DocumentList.js'
import { InformationList } from './InformationList.js'
import { SearchBox } from './SearchBox.js'

const TABS = ['information', 'documents'] as const
type Tab = (typeof TABS)[number]

interface Props {
  information: FieldRow[]
  documents: FieldRow[]
  linkedDocument: FileLink | null
  onPreview: (file: FileLink) => void
}

/**
 * The Information and Documents tabs (WAI-ARIA tabs: arrows, Home and End move and select) under
 * one search box, so a query keeps applying when the visitor switches tabs.
 */
export function ConsultTabs({ information, documents, linkedDocument, onPreview }: Props) {
  const { t } = useTranslation()
  const base = useId()
  const [active, setActive] = useState<Tab>('information')
  const [query, setQuery] = useState('')
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ information: null, documents: null })

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = TABS.indexOf(active)
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index - 1 + TABS.length) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : null
    if (!next) return
    event.preventDefault()
    setActive(next)
    tabs.current[next]?.focus()
  }

  const panelId = (tab: Tab) => `${base}-panel-${tab}`
  const tabId = (tab: Tab) => `${base}-tab-${tab}`

  return (
    <div className="consult-tabs">
      <div className="consult-tabs__bar">
        <div role="tablist" aria-label={t('consultation.details')} className="consult-tabs__list">
          {TABS.map((tab) => (
            <button
              key={tab}
              ref={(el) => {
                tabs.current[tab] = el
              }}
              type="button"
              role="tab"
              id={tabId(tab)}
              aria-selected={active === tab}
              aria-controls={panelId(tab)}
              tabIndex={active === tab ? 0 : -1}
              className="consult-tabs__tab"
              onClick={() => setActive(tab)}
              onKeyDown={onKeyDown}
            >
              {t(`consultation.tab_${tab}`)}
            </button>
          ))}
        </div>
        <SearchBox label={t('consultation.search')} value={query} onChange={setQuery} testId="consult-search" />
      </div>
      {TABS.map((tab) => (
        <div
          key={tab}
          role="tabpanel"
          id={panelId(tab)}
          aria-labelledby={tabId(tab)}
          hidden={active !== tab}
          tabIndex={0}
          className="consult-tabs__panel"
          data-testid={`consult-panel-${tab}`}
        >
          {tab === 'information' ? (
            <InformationList rows={searchRows(information, query)} />
          ) : (
            <DocumentList
              rows={searchRows(documents, query)}
              linkedDocument={linkedDocument}
              query={query}
              onPreview={onPreview}
            />
          )}
        </div>
      ))}
    </div>
  )
}
