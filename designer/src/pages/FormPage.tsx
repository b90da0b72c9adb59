/**
 * One form's draft read through the model: its pages, rows and items (type, label, columns per
 * device), the items on no page, and how many problems the contract finds. Read-only: the canvas
 * that edits it is the next increment.
 */
import { useMemo } from 'react'
import { Link, useParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { coreRegistry } from '@tramita/contract'
import { openDocument, outline, validateDocument, type OutlineItem } from '../model/index.js'
import { designerApi, type FormDetail } from '../lib/designer_api.js'
import { useCall } from '../lib/use_call.js'
import { Failure } from './Failure.js'

/** Core types only until plugins hand the designer theirs (a later increment). */
const registry = coreRegistry()

export function FormPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const loaded = useCall((signal) => designerApi.form(id, signal), [id])
  if (loaded.state === 'loading') return <p aria-busy="true">{t('loading')}</p>
  if (loaded.state === 'failed') return <Failure error={loaded.error} />
  return <FormView form={loaded.data} />
}

function FormView({ form }: { form: FormDetail }) {
  const { t } = useTranslation()
  const { read, problems } = useMemo(() => {
    const doc = openDocument({
      name: form.name,
      jsonconfig: form.draft?.jsonconfig ?? { form: { pages: [] } },
      process: form.draft?.process ?? {},
    })
    return { read: outline(doc, registry), problems: validateDocument(doc, registry) }
  }, [form])
  return (
    <section data-testid="form-view">
      <p>
        <Link to="/">← {t('back')}</Link>
      </p>
      <h1>{form.name}</h1>
      <p className={problems.length ? 'notice notice--error' : 'notice'} data-testid="problems">
        {problems.length ? t('problems', { count: problems.length }) : t('no_problems')}
      </p>
      <h2>{t('pages')}</h2>
      {read.pages.map((page) => (
        <article className="dpage" key={page.index} data-testid="page">
          <h3>
            {page.name} {page.section && <span className="badge">{t('section')}</span>}
          </h3>
          {page.rows.map((row, r) => (
            <div className="drow" key={r}>
              {row.length === 0 ? (
                <span className="muted">{t('empty_row')}</span>
              ) : (
                row.map((item) => <Item key={item.name} item={item} />)
              )}
            </div>
          ))}
        </article>
      ))}
      {read.unplaced.length > 0 && (
        <article className="dpage">
          <h3>{t('unplaced')}</h3>
          <div className="drow">
            {read.unplaced.map((item) => (
              <Item key={item.name} item={item} />
            ))}
          </div>
        </article>
      )}
    </section>
  )
}

function Item({ item }: { item: OutlineItem }) {
  const { t } = useTranslation()
  const { mobile, tablet, computer } = item.columns
  return (
    <div
      className={item.kind ? 'ditem' : 'ditem ditem--missing'}
      style={{ gridColumn: `span ${computer}` }}
      data-testid="item"
      data-name={item.name}
    >
      <code>{item.name}</code> {item.type && <span className="muted">{item.type}</span>}
      <div>{item.kind ? item.label : t('missing_item')}</div>
      <small className="muted" title={t('columns')}>
        {mobile} · {tablet} · {computer}
      </small>
    </div>
  )
}
