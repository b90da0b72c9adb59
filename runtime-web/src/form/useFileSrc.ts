import { useEffect, useState } from 'react'
import type { RuntimeServices } from './types.js'

/** The loadable address of a stored file (undefined while it is fetched or when it failed). */
export function useFileSrc(services: RuntimeServices, path: string | undefined | null): string | undefined {
  const [src, setSrc] = useState<{ path: string; url: string } | undefined>()
  useEffect(() => {
    if (!path) return
    let live = true
    services.fileSrc(path).then(
      (url) => live && setSrc({ path, url }),
      () => live && setSrc(undefined)
    )
    return () => {
      live = false
    }
  }, [services, path])
  return src && src.path === path ? src.url : undefined
}
