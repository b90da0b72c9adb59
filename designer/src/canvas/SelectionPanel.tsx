import { useDeferredValue, useMemo } from 'react'
import type { FieldTypeRegistry } from '@tramita/contract'
import { actionNames, editPage, findItem, indexProblems, setItemsValue, validateDocument } from '../model/index.js'
import { PagePanel, PropertyPanel, pageProblems } from '../panel/index.js'
import type { Design } from './use_design.js'

/**
 * The property panel of what is selected on the canvas. Problems come from a deferred check of the
 * document (validation of a large form takes tens of ms; typing must not wait for it). Edits of one
 * value in a row are one undo step; a rename keeps the renamed item selected.
 */
export function SelectionPanel({ design, registry }: { design: Design; registry: FieldTypeRegistry }) {
  const { doc, selection } = design
  const items = selection.flatMap((name) => {
    const found = findItem(doc.jsonconfig, name)
    return found ? [{ name, kind: found.kind, item: found.item }] : []
  })
  const checked = useDeferredValue(doc)
  const problems = useMemo(() => indexProblems(checked, validateDocument(checked, registry)), [checked, registry])
  const onChange = (path: readonly string[], value: unknown) => {
    const ok = design.run(setItemsValue(selection, path, value), `panel:${selection.join(',')}:${path.join('/')}`)
    if (ok && path.length === 1 && path[0] === 'field_name' && typeof value === 'string') design.setSelection([value])
  }
  const page = design.doc.jsonconfig.form.pages[design.page]
  const ofPage = useMemo(
    () => (page ? pageProblems(problems.all, design.page, page.name) : []),
    [problems, design.page, page?.name]
  )
  if (design.pageSettings && items.length === 0 && page) {
    return (
      <PagePanel
        page={page}
        name={page.name}
        problems={ofPage}
        onChange={(path, value) =>
          design.run(editPage(design.page, path, value), `page:${design.page}:${path.join('/')}`)
        }
        onClose={() => design.openPageSettings(undefined)}
      />
    )
  }
  return (
    <PropertyPanel
      items={items}
      registry={registry}
      problemsOf={problems.ofItem}
      onChange={onChange}
      form={doc.jsonconfig}
      language={design.textLanguage}
      actionNames={actionNames(doc.jsonconfig)}
    />
  )
}
