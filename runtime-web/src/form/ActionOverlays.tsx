/**
 * The form's modal and download panel (spec 000 §2): only actions open them (the action engine's
 * modal and download steps), so FormRuntime loads this chunk for forms that have actions only.
 */
import { DownloadsPanel } from './DownloadsPanel.js'
import { FormModal } from './FormModal.js'
import type { Rows } from './PageView.js'

export default function ActionOverlays({ Rows: rows }: { Rows: typeof Rows }) {
  return (
    <>
      <FormModal Rows={rows} />
      <DownloadsPanel />
    </>
  )
}
