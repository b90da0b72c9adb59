/**
 * One page of the form with its style (spec 000 §3 "Page"): width per device, max width, margins,
 * radius, the page's own background, shadow, border and blur, and a background image on the left,
 * right, top, both sides or centered behind the page, taking 1/proportion of the space (half on tablets).
 */
import type { CSSProperties, ReactNode } from 'react'
import { backgroundProportion, pageWidth, type Device, type PageConfig } from '@tramita/contract'
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

/** The page's style: its own, or the body's when style_from_body is set (background only differs). */
function cardStyle(page: PageConfig, device: Device): CSSProperties {
  const style = page.style
  const look = style.page_style
  return {
    width: `${pageWidth(page, device)}%`,
    maxWidth: style.maxwidth,
    marginTop: style.margins.top,
    marginBottom: style.margins.bottom,
    borderRadius: style.borderRadius,
    paddingLeft: style.lateral_paddings || undefined,
    paddingRight: style.lateral_paddings || undefined,
    background: look.background,
    opacity: look.opacity,
    boxShadow: look.shadow ? undefined : 'none',
    border: look.border ? '1px solid var(--border)' : undefined,
    backdropFilter: look.blur_backdrop ? 'blur(8px)' : undefined,
  }
}

interface Props {
  page: PageConfig
  device: Device
  /** Bars and the missing-required list, drawn inside the card under the rows. */
  footer?: ReactNode
}

export function PageView({ page, device, footer }: Props) {
  const style = page.style
  const image = style.background_image
  const share = 100 / backgroundProportion(page, device)
  // Encoded, so no quote or bracket in the address can end the CSS url().
  const backgroundImage = `url("${encodeURI(image)}")`
  // On a phone a side image would squeeze the form: it moves to the top.
  const placement = image && device === 'mobile' && style.type_page !== 'center' ? 'top' : style.type_page
  const card = (
    <section className="fpage" style={cardStyle(page, device)} aria-label={page.name} data-page={page.name}>
      <Rows page={page} />
      {footer}
    </section>
  )
  if (!image) return <div className="fpage-wrap">{card}</div>
  const picture = (side: string) => (
    <div
      className={`fpage-image fpage-image--${side}`}
      style={{ backgroundImage, flexBasis: `${share}%` }}
      aria-hidden="true"
    />
  )
  switch (placement) {
    case 'left':
      return (
        <div className="fpage-wrap fpage-wrap--row">
          {picture('left')}
          {card}
        </div>
      )
    case 'right':
      return (
        <div className="fpage-wrap fpage-wrap--row">
          {card}
          {picture('right')}
        </div>
      )
    case 'side':
      return (
        <div className="fpage-wrap fpage-wrap--row">
          {picture('left')}
          {card}
          {picture('right')}
        </div>
      )
    case 'top':
      return (
        <div className="fpage-wrap fpage-wrap--column">
          <div
            className="fpage-image fpage-image--top"
            style={{ backgroundImage, height: `${share * 2}vh` }}
            aria-hidden="true"
          />
          {card}
        </div>
      )
    default:
      return (
        <div className="fpage-wrap fpage-wrap--center" style={{ backgroundImage }}>
          {card}
        </div>
      )
  }
}
