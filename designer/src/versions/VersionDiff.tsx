import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { designerApi } from '../lib/designer_api.js'
import { canonicalJson, sideBySide, withContext, type DiffRow } from './side_by_side.js'
import './versions.css'

/** What can be compared: a published version by number, or the draft being designed. */
export type VersionChoice = number | 'draft'

interface Props {
  formId: number
  /** Published version numbers, newest first. */
  versions: number[]
  /** The draft as the designer holds it now (compared without being saved). */
  draft: { jsonconfig: unknown; process: unknown } | null
}

type Documents = { jsonconfig: unknown; process: unknown }

/** A side-by-side diff of two versions (or a version and the draft), changes with 3 lines of context. */
export function VersionDiff({ formId, versions, draft }: Props) {
  const { t } = useTranslation()
  const choices: VersionChoice[] = [...(draft ? (['draft'] as const) : []), ...versions]
  const [left, setLeft] = useState<VersionChoice | undefined>(choices[1] ?? choices[0])
  const [right, setRight] = useState<VersionChoice | undefined>(choices[0])
  const [docs, setDocs] = useState<{ left?: Documents; right?: Documents; error?: string }>({})
  const [everything, setEverything] = useState(false)

  useEffect(() => {
    let live = true
    const load = (choice: VersionChoice | undefined): Promise<Documents | undefined> =>
      choice === undefined
        ? Promise.resolve(undefined)
        : choice === 'draft'
          ? Promise.resolve(draft ?? undefined)
          : designerApi.version(formId, choice)
    Promise.all([load(left), load(right)]).then(
      ([l, r]) => live && setDocs({ left: l, right: r }),
      (error: unknown) => live && setDocs({ error: error instanceof Error ? error.message : String(error) })
    )
    return () => {
      live = false
    }
  }, [formId, left, right, draft])

  const rows = useMemo(() => {
    if (!docs.left || !docs.right) return []
    // Only the definitions: a version's number and date are not what changed in it.
    const text = (d: Documents) => canonicalJson({ jsonconfig: d.jsonconfig, process: d.process })
    const all = sideBySide(text(docs.left), text(docs.right))
    return everything ? all : withContext(all)
  }, [docs, everything])
  const changes = rows.filter((r) => r && r.kind !== 'same').length
  const label = (c: VersionChoice) => (c === 'draft' ? t('version_diff.draft') : t('version_diff.version', { n: c }))
  const picker = (value: VersionChoice | undefined, set: (v: VersionChoice) => void, name: string) => (
    <label>
      {name}{' '}
      <select
        value={String(value ?? '')}
        onChange={(e) => set(e.target.value === 'draft' ? 'draft' : Number(e.target.value))}
      >
        {choices.map((c) => (
          <option key={String(c)} value={String(c)}>
            {label(c)}
          </option>
        ))}
      </select>
    </label>
  )

  if (choices.length < 2) return <p className="versions-empty">{t('version_diff.nothing_to_compare')}</p>
  return (
    <section className="versions" aria-label={t('version_diff.title')} data-testid="version-diff">
      <div className="versions-bar">
        {picker(left, setLeft, t('version_diff.left'))}
        {picker(right, setRight, t('version_diff.right'))}
        <label>
          <input type="checkbox" checked={everything} onChange={(e) => setEverything(e.target.checked)} />{' '}
          {t('version_diff.everything')}
        </label>
        <span role="status">{docs.error ?? t('version_diff.changes', { count: changes })}</span>
      </div>
      <table className="versions-table">
        <tbody>{rows.map((row, i) => (row ? <Row key={i} row={row} /> : <Gap key={i} />))}</tbody>
      </table>
    </section>
  )
}

function Row({ row }: { row: DiffRow }) {
  return (
    <tr className={`diff-${row.kind}`} data-kind={row.kind}>
      <td className="diff-line">{row.left?.line ?? ''}</td>
      <td className="diff-text">{row.left?.text ?? ''}</td>
      <td className="diff-line">{row.right?.line ?? ''}</td>
      <td className="diff-text">{row.right?.text ?? ''}</td>
    </tr>
  )
}

function Gap() {
  return (
    <tr className="diff-gap">
      <td colSpan={4}>⋯</td>
    </tr>
  )
}
