/**
 * A page's settings (spec 000 §3 "Page"): editors generated from the contract's Page schema with the
 * item panel's building blocks, so each key shows its default as a placeholder, a reset when it is
 * set, and the contract's problems at its path. Writes go through `onChange(path, value)`.
 */
import { useMemo } from 'react'
import { editorPaths, unplacedProblems, type ShownProblem } from './problems.js'
import { PAGE_PREFIX, pageNodes } from './page_nodes.js'
import { PanelContext, useTexts } from './panel_context.js'
import { ProblemList } from './ProblemList.js'
import { NodeEditor } from './NodeEditor.js'
import type { ValueSource } from './source.js'
import { sharedValue } from './values.js'
import './panel.css'

export interface PagePanelProps {
  /** The page as the document stores it (sparse: the defaults apply on read). */
  page: unknown
  name: string
  /** The page's problems at the editors' paths (page_nodes.ts pageProblems). */
  problems: readonly ShownProblem[]
  /** Sets (or, with undefined, removes) the value at `path` inside the page. */
  onChange: (path: readonly string[], value: unknown) => void
  onClose: () => void
}

export function PagePanel({ page, name, problems, onChange, onClose }: PagePanelProps) {
  const texts = useTexts()
  const source: ValueSource = {
    read: (path) => sharedValue([page], path),
    write: (path, value) => onChange(path.map(String), value),
  }
  const paths = useMemo(() => editorPaths(pageNodes(), [PAGE_PREFIX]), [])
  const elsewhere = unplacedProblems(problems, paths.exact, paths.containers)
  const context = useMemo(() => ({ problems, multi: false }), [problems])
  return (
    <aside className="property-panel" aria-label={texts.t('page_panel.title')} data-testid="page-panel">
      <h2>{texts.t('page_panel.title')}</h2>
      <p className="panel-selection">
        {texts.tv('page_panel.of', { name })}{' '}
        <button type="button" onClick={onClose} data-testid="page-panel-close">
          {texts.t('page_panel.close')}
        </button>
      </p>
      <PanelContext.Provider value={context}>
        <ProblemList problems={elsewhere} multi={false} />
        {pageNodes().map((node) => (
          <NodeEditor key={node.key} node={node} source={source} at={node.path} abs={[PAGE_PREFIX, ...node.path]} />
        ))}
      </PanelContext.Provider>
    </aside>
  )
}
