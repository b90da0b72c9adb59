/**
 * Pictures and links of stored files. A signed-in reader's files need the `token` header, which an
 * <img> or <a> cannot send, so they load through services.fileSrc (an object URL); until then the
 * picture is empty and the link inert.
 */
import type { AnchorHTMLAttributes, ImgHTMLAttributes } from 'react'
import type { RuntimeServices } from './types.js'
import { useFileSrc } from './useFileSrc.js'

type ImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & { services: RuntimeServices; path: string }

export function StoredImage({ services, path, alt = '', ...rest }: ImageProps) {
  const src = useFileSrc(services, path)
  return <img {...rest} alt={alt} src={src} data-path={path} aria-busy={src ? undefined : true} />
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  services: RuntimeServices
  path: string
  /** The name the file downloads with. */
  name: string
}

export function StoredLink({ services, path, name, children, ...rest }: LinkProps) {
  const src = useFileSrc(services, path)
  return (
    <a
      {...rest}
      href={src}
      download={src?.startsWith('blob:') ? name : undefined}
      aria-disabled={src ? undefined : true}
    >
      {children}
    </a>
  )
}
