import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import { useTranslation } from 'react-i18next'

/** A route of this app in the navigation: its text's key in the app's texts; `end`: active on that exact path only. */
export interface HeaderItem {
  to: string
  key: string
  end?: boolean
}

export interface HeaderProps {
  /** The product's name (and what this app is), linking to this app's start. */
  brand: ReactNode
  items: readonly HeaderItem[]
  /** After the items, inside the navigation: a link to the other app (a plain <a>: not this app's route). */
  navEnd?: ReactNode
  /** The right-hand tools: health, online state, language switch. */
  children?: ReactNode
}

/**
 * The apps' shared header: brand, the app's navigation (the app decides its items), tools. Its texts
 * are the app's: `nav.main` names the navigation, each item's key its entry (as `language.*` and
 * `toast.*` serve the language switch and the toasts).
 */
export function Header({ brand, items, navEnd, children }: HeaderProps) {
  const { t } = useTranslation()
  return (
    <header className="header">
      <Link to="/" className="brand">
        <span className="brand__mark" aria-hidden="true">
          T
        </span>
        <span className="brand__name">{brand}</span>
      </Link>
      <nav className="nav" aria-label={t('nav.main')}>
        {items.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className="nav__link">
            {t(item.key)}
          </NavLink>
        ))}
        {navEnd}
      </nav>
      <div className="header__tools">{children}</div>
    </header>
  )
}
