/** What the preview panel gives each lazily loaded viewer. */
export interface ViewerProps {
  url: string
  name: string
  /** The file is shown: the panel hides its loader. */
  onReady: () => void
  /** The file could not be shown: the panel falls back to the no-preview message with download. */
  onFail: () => void
}
