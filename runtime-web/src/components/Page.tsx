import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface PageProps {
  title: string
  children?: ReactNode
  testId?: string
}

/** A page's frame: its heading, the document title, and its contents. */
export function Page({ title, children, testId }: PageProps) {
  const { t } = useTranslation()
  const product = t('app.name')
  useEffect(() => {
    document.title = `${title} · ${product}`
  }, [title, product])
  return (
    <section className="page" data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </section>
  )
}
