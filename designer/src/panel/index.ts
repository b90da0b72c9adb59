/** The property panel: PropertyPanel and what wiring it needs (see PropertyPanel.tsx). */
export { PropertyPanel, type PropertyPanelProps } from './PropertyPanel.js'
export type { PanelItem } from './common.js'
export type { ItemProblem } from './problems.js'
export { PagePanel, type PagePanelProps } from './PagePanel.js'
export { pageProblems } from './page_nodes.js'
