/**
 * What the web app lends the screens of plugins, which may not import it: the file preview panel
 * (with the viewers: PDF, video, audio, image, code with search, 3D). runtime-web provides it around
 * every plugin screen; a screen reads it with useScreenHost(). Passed in, not imported, so the
 * viewers' chunks stay runtime-web's and load only when a file is opened.
 */
import { createContext, useContext, type ComponentType } from 'react'

/** What the preview kind is found from: the file's name unless given. */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'model' | 'other'

export interface HostPreviewFile {
  name: string
  /** A URL the browser may read without headers (an object URL of the fetched bytes). */
  url: string
  kind?: PreviewKind | null
}

export interface ScreenHost {
  /** The draggable preview: name, download and close; a file no viewer reads gets the download offer. */
  FilePreview: ComponentType<{ file: HostPreviewFile; onClose: () => void }>
}

const HostContext = createContext<ScreenHost | null>(null)

export const ScreenHostProvider = HostContext.Provider

/** The host's services; throws outside a plugin screen (a bug, not a state to draw). */
export function useScreenHost(): ScreenHost {
  const host = useContext(HostContext)
  if (!host) throw new Error('useScreenHost: not inside a plugin screen')
  return host
}
