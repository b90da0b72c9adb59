/** Fields and elements on no page (a `var` the scripts use): they can be dragged onto a row. */
import { useTranslation } from 'react-i18next'
import type { OutlineItem } from '../model/index.js'
import { ItemCard } from './ItemCard.js'
import type { Design } from './use_design.js'

export function UnplacedItems({ design, items }: { design: Design; items: OutlineItem[] }) {
  const { t } = useTranslation()
  if (items.length === 0) return null
  return (
    <article className="dpage" data-testid="unplaced">
      <h3>{t('unplaced')}</h3>
      <div className="drow__grid">
        {items.map((item) => (
          <ItemCard
            key={item.name}
            item={item}
            device="computer"
            selected={design.selection.includes(item.name)}
            onSelect={design.select}
          />
        ))}
      </div>
    </article>
  )
}
