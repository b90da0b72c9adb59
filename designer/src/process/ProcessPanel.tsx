import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import type { ActionTypeRegistry, FieldTypeRegistry } from '@tramita/contract'
import { indexProblems, validateDocument } from '../model/index.js'
import type { Design } from '../canvas/use_design.js'
import { loadDirectory, type Directory } from './people.js'
import { ProcessEditor } from './ProcessEditor.js'

/**
 * The process view of the editor: the model's problems (checked on a deferred copy of the document,
 * so typing stays quick while ~45 ms of validation catches up) and the people to give steps to.
 */
export function ProcessPanel({
  design,
  registry,
  actionTypes,
}: {
  design: Design
  registry: FieldTypeRegistry
  actionTypes?: ActionTypeRegistry
}) {
  const [directory, setDirectory] = useState<Directory | null>(null)
  useEffect(() => {
    let live = true
    loadDirectory().then(
      (found) => live && setDirectory(found),
      () => live && setDirectory({ users: [], roles: [], areas: [] })
    )
    return () => {
      live = false
    }
  }, [])
  const checked = useDeferredValue(design.doc)
  const problems = useMemo(
    () => indexProblems(checked, validateDocument(checked, registry, actionTypes)),
    [checked, registry, actionTypes]
  )
  return (
    <ProcessEditor
      doc={design.doc}
      apply={(command, merge) => design.run(command, merge)}
      problems={problems}
      directory={directory}
    />
  )
}
