/**
 * The shown page: its name, section mark and place among the pages, then its rows on the 12-column
 * grid with a drop zone for a new row between each two and at the bottom.
 */
import { Fragment, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Device } from '@tramita/contract'
import { movePage, renamePage, setPageSection, type OutlinePage } from '../model/index.js'
import { CanvasRow } from './CanvasRow.js'
import { DropZone } from './DropZone.js'
import type { Design } from './use_design.js'

export function PageCanvas({ design, page, device }: { design: Design; page: OutlinePage; device: Device }) {
  const { t } = useTranslation()
  const last = design.doc.jsonconfig.form.pages.length - 1
  const move = (to: number) => {
    if (design.run(movePage(page.index, to))) design.setPage(to)
  }
  return (
    <article className="dpage" data-testid="page" data-page={page.index}>
      <header className="dpage__head">
        <PageName page={page} design={design} />
        <label>
          <input
            type="checkbox"
            checked={page.section}
            onChange={(event) => design.run(setPageSection(page.index, event.target.checked))}
            data-testid="page-section"
          />{' '}
          {t('section')}
        </label>
        <button type="button" disabled={page.index === 0} onClick={() => move(page.index - 1)}>
          ← {t('move_page_before')}
        </button>
        <button type="button" disabled={page.index === last} onClick={() => move(page.index + 1)}>
          {t('move_page_after')} →
        </button>
      </header>
      {page.rows.map((row, r) => (
        <Fragment key={r}>
          <DropZone place={{ at: 'row', page: page.index, row: r }} className="dzone dzone--between" />
          <CanvasRow design={design} page={page.index} row={r} items={row} device={device} />
        </Fragment>
      ))}
      <DropZone place={{ at: 'row', page: page.index, row: page.rows.length }} className="dzone dzone--new">
        {t('drop_new_row')}
      </DropZone>
    </article>
  )
}

/** The page's name, renamed when the box is left or Enter pressed (one step of history). */
function PageName({ page, design }: { page: OutlinePage; design: Design }) {
  const { t } = useTranslation()
  const [name, setName] = useState(page.name)
  useEffect(() => setName(page.name), [page.name, page.index])
  const commit = () => {
    if (name.trim() === '' || name === page.name) setName(page.name)
    else design.run(renamePage(page.index, name.trim()))
  }
  return (
    <input
      className="dpage__name"
      aria-label={t('page_name')}
      value={name}
      onChange={(event) => setName(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => event.key === 'Enter' && commit()}
      data-testid="page-name"
    />
  )
}
