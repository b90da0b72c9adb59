/**
 * The shown page: its name, section mark, place among the pages, settings and deletion, then the
 * page as the runtime draws it on the chosen device (the contract's pageLook: width, margins, look,
 * background colour and image) with its rows on the 12-column grid, a drop zone for a new row
 * between each two and at the bottom.
 */
import { Fragment, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { bodyStyleWithDefaults, pageLook, pageWithDefaults, type Device } from '@tramita/contract'
import { deletePage, movePage, pageItemNames, renamePage, setPageSection, type OutlinePage } from '../model/index.js'
import { CanvasRow } from './CanvasRow.js'
import { DropZone } from './DropZone.js'
import type { Design } from './use_design.js'

export function PageCanvas({ design, page, device }: { design: Design; page: OutlinePage; device: Device }) {
  const { t } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const last = design.doc.jsonconfig.form.pages.length - 1
  const move = (to: number) => {
    if (design.run(movePage(page.index, to))) design.setPage(to)
  }
  useEffect(() => setConfirming(false), [page.index])
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
        <button
          type="button"
          disabled={page.index === 0}
          onClick={() => move(page.index - 1)}
          data-testid="page-before"
        >
          ← {t('move_page_before')}
        </button>
        <button
          type="button"
          disabled={page.index === last}
          onClick={() => move(page.index + 1)}
          data-testid="page-after"
        >
          {t('move_page_after')} →
        </button>
        <button
          type="button"
          aria-pressed={design.pageSettings}
          onClick={() => design.openPageSettings(design.pageSettings ? undefined : page.index)}
          data-testid="page-settings-open"
        >
          ⚙ {t('page_settings')}
        </button>
        <button
          type="button"
          disabled={last === 0}
          title={last === 0 ? t('page_delete_last') : undefined}
          onClick={() => setConfirming(true)}
          data-testid="page-delete"
        >
          {t('page_delete')}
        </button>
      </header>
      {confirming && <DeletePage design={design} page={page} onDone={() => setConfirming(false)} />}
      <PageFrame design={design} page={page} device={device} />
    </article>
  )
}

/** The page card on its background, for the device, around the rows. */
function PageFrame({ design, page, device }: { design: Design; page: OutlinePage; device: Device }) {
  const { t } = useTranslation()
  const stored = design.doc.jsonconfig.form.pages[page.index]
  const bodyStyle = (design.doc.jsonconfig.form.body as { style?: unknown } | undefined)?.style
  const look = useMemo(
    () => pageLook(pageWithDefaults(stored), bodyStyleWithDefaults(bodyStyle), device),
    [stored, bodyStyle, device]
  )
  const image = look.image
  const picture = (side: string) => (
    <div className={`dimage dimage--${side}`} style={image?.box} aria-hidden="true" data-testid="page-image" />
  )
  const placement = image?.placement ?? 'none'
  return (
    <div className={`dstage dstage--${device}`} data-testid="page-stage" data-device={device}>
      <div className={`dwrap dwrap--${placement}`} style={look.wrap} data-testid="page-wrap">
        {(placement === 'left' || placement === 'side') && picture('left')}
        {placement === 'top' && picture('top')}
        <div className="dcard" style={look.card} data-testid="page-card">
          {look.pagebar && (
            <div className="dpagebar" data-testid="page-pagebar">
              {t('page_pagebar')}
            </div>
          )}
          {page.rows.map((row, r) => (
            <Fragment key={r}>
              <DropZone place={{ at: 'row', page: page.index, row: r }} className="dzone dzone--between" />
              <CanvasRow
                design={design}
                page={page.index}
                row={r}
                rows={page.rows.length}
                items={row}
                device={device}
              />
            </Fragment>
          ))}
          <DropZone place={{ at: 'row', page: page.index, row: page.rows.length }} className="dzone dzone--new">
            {t('drop_new_row')}
          </DropZone>
        </div>
        {(placement === 'right' || placement === 'side') && picture('right')}
      </div>
    </div>
  )
}

/**
 * Deleting a page asks first. Its fields and elements are kept on no page by default (listed under
 * the canvas, to be dragged back); deleting them too is a choice of its own.
 */
function DeletePage({ design, page, onDone }: { design: Design; page: OutlinePage; onDone: () => void }) {
  const { t } = useTranslation()
  const count = pageItemNames(design.doc, page.index).length
  const remove = (items: 'keep' | 'delete') => {
    if (design.run(deletePage(page.index, items))) design.setPage(Math.max(0, page.index - 1))
    onDone()
  }
  return (
    <div
      className="dconfirm"
      role="alertdialog"
      aria-labelledby={`page-delete-${page.index}`}
      onKeyDown={(event) => event.key === 'Escape' && onDone()}
      data-testid="page-delete-confirm"
    >
      <p id={`page-delete-${page.index}`}>
        {t('page_delete_ask', { name: page.name })} {count > 0 && t('page_delete_items', { count })}
      </p>
      <button type="button" autoFocus onClick={() => remove('keep')} data-testid="page-delete-keep">
        {count > 0 ? t('page_delete_keep') : t('page_delete')}
      </button>
      {count > 0 && (
        <button type="button" onClick={() => remove('delete')} data-testid="page-delete-all">
          {t('page_delete_all', { count })}
        </button>
      )}
      <button type="button" onClick={onDone} data-testid="page-delete-cancel">
        {t('cancel')}
      </button>
    </div>
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
