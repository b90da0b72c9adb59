/**
 * The pages as tabs: choose one, open its settings, add one, move one (Alt+← / Alt+→ on its tab),
 * and drop items on a tab to move them to that page.
 */
import { useRef, type KeyboardEvent } from 'react'
import { useDroppable } from '@dnd-kit/core'
import { useTranslation } from 'react-i18next'
import { addPage, movePage, uniquePageName, type Outline, type OutlinePage } from '../model/index.js'
import { dropId } from './drops.js'
import type { Design } from './use_design.js'

const tabId = (index: number) => `page-tab-${index}`

export function PageTabs({ design, read }: { design: Design; read: Outline }) {
  const { t } = useTranslation()
  const add = () => {
    const name = uniquePageName(design.doc.jsonconfig, t('new_page'))
    if (design.run(addPage(name))) design.setPage(read.pages.length)
  }
  const list = useRef<HTMLDivElement>(null)
  const move = (from: number, to: number) => {
    if (to < 0 || to >= read.pages.length || !design.run(movePage(from, to))) return
    design.setPage(to)
    // Tabs are keyed by place: the focus follows the moved page to its new tab.
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus())
  }
  return (
    <div className="tabs" ref={list}>
      {/* Only tabs belong in a tablist: it owns the page tabs by id, and each tab's settings button and
          the add button stay beside them, outside it. Absolute, so it takes no place in the row. */}
      <div
        role="tablist"
        aria-label={t('pages')}
        aria-owns={read.pages.map((page) => tabId(page.index)).join(' ')}
        style={{ position: 'absolute' }}
      />
      {read.pages.map((page) => (
        <PageTab
          key={page.index}
          page={page}
          active={page.index === design.page}
          settings={design.pageSettings && page.index === design.page}
          onPick={design.setPage}
          onSettings={() => design.openPageSettings(page.index)}
          onMove={(by) => move(page.index, page.index + by)}
        />
      ))}
      <button type="button" className="tabs__add" onClick={add} data-testid="add-page">
        + {t('add_page')}
      </button>
    </div>
  )
}

function PageTab(props: {
  page: OutlinePage
  active: boolean
  settings: boolean
  onPick: (page: number) => void
  onSettings: () => void
  onMove: (by: -1 | 1) => void
}) {
  const { page, active, settings, onPick, onSettings, onMove } = props
  const { t } = useTranslation()
  const { setNodeRef, isOver } = useDroppable({ id: dropId({ at: 'page', page: page.index }) })
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!event.altKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return
    event.preventDefault()
    onMove(event.key === 'ArrowLeft' ? -1 : 1)
  }
  return (
    <span className="tab__wrap" role="presentation">
      <button
        ref={setNodeRef}
        id={tabId(page.index)}
        type="button"
        role="tab"
        aria-selected={active}
        aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight"
        className={['tab', active && 'tab--active', isOver && 'dzone--over'].filter(Boolean).join(' ')}
        onClick={() => onPick(page.index)}
        onKeyDown={onKeyDown}
        data-testid="page-tab"
        data-drop={dropId({ at: 'page', page: page.index })}
      >
        {page.name} {page.section && <span className="badge">{t('section')}</span>}
      </button>
      <button
        type="button"
        className={settings ? 'tab__settings tab__settings--on' : 'tab__settings'}
        aria-label={t('page_settings_of', { name: page.name })}
        aria-pressed={settings}
        title={t('page_settings_of', { name: page.name })}
        onClick={onSettings}
        data-testid="page-settings"
      >
        ⚙
      </button>
    </span>
  )
}
