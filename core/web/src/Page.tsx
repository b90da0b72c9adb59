import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface PageProps {
  title: string
  children?: ReactNode
  testId?: string
  /** 'form': no card and the whole width, for screens that lay out their own pages (the form screen). */
  variant?: 'card' | 'form'
}

/** A page's frame: its heading, the document title, and its contents. */
export function Page({ title, children, testId, variant = 'card' }: PageProps) {
  const { t } = useTranslation()
  const product = t('app.name')
  useEffect(() => {
    document.title = `${title} · ${product}`
  }, [title, product])
  return (
    <section className={variant === 'form' ? 'page page--form' : 'page'} data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </section>
  )
}
