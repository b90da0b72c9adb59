/** The pages as tabs: choose one, add one, and drop items on a tab to move them to that page. */
import { useDroppable } from '@dnd-kit/core'
import { useTranslation } from 'react-i18next'
import { addPage, uniquePageName, type Outline, type OutlinePage } from '../model/index.js'
import { dropId } from './drops.js'
import type { Design } from './use_design.js'

export function PageTabs({ design, read }: { design: Design; read: Outline }) {
  const { t } = useTranslation()
  const add = () => {
    const name = uniquePageName(design.doc.jsonconfig, t('new_page'))
    if (design.run(addPage(name))) design.setPage(read.pages.length)
  }
  return (
    <div className="tabs" role="tablist" aria-label={t('pages')}>
      {read.pages.map((page) => (
        <PageTab key={page.index} page={page} active={page.index === design.page} onPick={design.setPage} />
      ))}
      <button type="button" className="tabs__add" onClick={add} data-testid="add-page">
        + {t('add_page')}
      </button>
    </div>
  )
}

function PageTab({ page, active, onPick }: { page: OutlinePage; active: boolean; onPick: (page: number) => void }) {
  const { t } = useTranslation()
  const { setNodeRef, isOver } = useDroppable({ id: dropId({ at: 'page', page: page.index }) })
  return (
    <button
      ref={setNodeRef}
      type="button"
      role="tab"
      aria-selected={active}
      className={['tab', active && 'tab--active', isOver && 'dzone--over'].filter(Boolean).join(' ')}
      onClick={() => onPick(page.index)}
      data-testid="page-tab"
      data-drop={dropId({ at: 'page', page: page.index })}
    >
      {page.name} {page.section && <span className="badge">{t('section')}</span>}
    </button>
  )
}
