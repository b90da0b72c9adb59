/** A section element shows, in place, the rows of the section page whose section_id it names. */
import type { ElementProps } from '../../types.js'

export function SectionElement({ item, store, renderItem }: ElementProps) {
  const page = store.sectionPage(String(item.data.section_id))
  if (!page) return null
  return (
    <div className="fsection" data-section={String(item.data.section_id)}>
      {page.layout.map((row, index) => (
        <div className="frow" key={index}>
          {row.map((name) => renderItem(name))}
        </div>
      ))}
    </div>
  )
}
