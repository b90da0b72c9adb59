/** The image element (spec 000 §3): a picture from data.src, 180 px high by default, with contain and position. */
import type { ElementProps } from '../../types.js'
import '../fields/media/media.css'
import { StoredImage } from '../../StoredFile.js'

const POSITIONS: Record<string, string> = { left: 'left center', center: 'center', right: 'right center' }

export function ImageElement({ item, services }: ElementProps) {
  const src = typeof item.data.src === 'string' ? item.data.src.trim() : ''
  if (!src) return null
  return (
    <div className="media-image-element" style={{ height: item.data.height }}>
      <StoredImage
        services={services}
        path={src}
        alt={item.data.label.value || ''}
        style={{
          objectFit: item.data.contain === false ? 'cover' : 'contain',
          objectPosition: POSITIONS[item.data.position] ?? 'center',
        }}
      />
    </div>
  )
}
