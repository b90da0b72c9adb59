/**
 * One page of the form with its style (spec 000 §3 "Page"): width per device, max width, margins,
 * radius, the page's own background, shadow, border and blur, and a background image on the left,
 * right, top, both sides or centered behind the page. The rules are the contract's pageLook.
 */
import type { ReactNode } from 'react'
import { pageLook, type BodyStyleConfig, type Device, type PageConfig } from '@tramita/contract'
import { ItemView } from './ItemView.js'

export function Rows({ page }: { page: PageConfig }) {
  return (
    <>
      {page.layout.map((row, index) => (
        <div className="frow" key={index}>
          {row.map((name) => (
            <ItemView key={name} name={name} />
          ))}
        </div>
      ))}
    </>
  )
}

interface Props {
  page: PageConfig
  device: Device
  /** The form body's style: it stands in for the page's own with style_from_body. */
  body?: BodyStyleConfig
  /** Bars and the missing-required list, drawn inside the card under the rows. */
  footer?: ReactNode
}

/** The page drawn as the contract's pageLook says (the designer's canvas draws from the same). */
export function PageView({ page, device, body, footer }: Props) {
  const look = pageLook(page, body, device)
  const card = (
    <section className="fpage" style={look.card} aria-label={page.name} data-page={page.name} tabIndex={-1}>
      <Rows page={page} />
      {footer}
    </section>
  )
  const image = look.image
  if (!image)
    return (
      <div className="fpage-wrap" style={look.wrap}>
        {card}
      </div>
    )
  const picture = (side: string) => (
    <div className={`fpage-image fpage-image--${side}`} style={image.box} aria-hidden="true" />
  )
  switch (image.placement) {
    case 'left':
      return (
        <div className="fpage-wrap fpage-wrap--row" style={look.wrap}>
          {picture('left')}
          {card}
        </div>
      )
    case 'right':
      return (
        <div className="fpage-wrap fpage-wrap--row" style={look.wrap}>
          {card}
          {picture('right')}
        </div>
      )
    case 'side':
      return (
        <div className="fpage-wrap fpage-wrap--row" style={look.wrap}>
          {picture('left')}
          {card}
          {picture('right')}
        </div>
      )
    case 'top':
      return (
        <div className="fpage-wrap fpage-wrap--column" style={look.wrap}>
          {picture('top')}
          {card}
        </div>
      )
    default:
      return (
        <div className="fpage-wrap fpage-wrap--center" style={look.wrap}>
          {card}
        </div>
      )
  }
}
