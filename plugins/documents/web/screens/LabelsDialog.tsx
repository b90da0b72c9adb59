/** A file's labels (the caller's own): tick the ones it carries, or make a new label on the spot. */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import { LIBRARY_LIMITS, type FileRow, type LabelRow } from '../../shared/library.js'
import { createLabel, labels as listLabels, setLabels } from '../library/api.js'

export function LabelsDialog({ file, onClose, onSaved }: { file: FileRow; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation()
  const [all, setAll] = useState<LabelRow[] | null>(null)
  const [chosen, setChosen] = useState(() => new Set(file.labels.map((label) => label.id)))
  const [name, setName] = useState('')
  const [color, setColor] = useState('#7f82ff')

  useEffect(() => {
    listLabels().then(setAll, (error: unknown) => {
      toasts.error(errorText(error))
      setAll([])
    })
  }, [])

  async function add(event: FormEvent) {
    event.preventDefault()
    if (!name.trim()) return
    try {
      const label = await createLabel(name.trim(), color)
      setAll((current) => [...(current ?? []), label])
      setChosen((current) => new Set([...current, label.id]))
      setName('')
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  async function save() {
    try {
      await setLabels(file.id, [...chosen])
      onSaved()
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.labels_of', { name: file.name })}
      onClose={onClose}
      testId="docs-labels-dialog"
    >
      {all === null ? (
        <p role="status" aria-busy="true" />
      ) : (
        <fieldset className="docs-labels">
          <legend>{t('documents.screens.labels')}</legend>
          {all.length === 0 && <p className="muted">{t('documents.screens.no_labels')}</p>}
          {all.map((label) => (
            <label key={label.id}>
              <input
                type="checkbox"
                checked={chosen.has(label.id)}
                onChange={(event) => {
                  const next = new Set(chosen)
                  if (event.target.checked) next.add(label.id)
                  else next.delete(label.id)
                  setChosen(next)
                }}
              />
              <span className="docs-label__dot" style={{ background: label.color }} aria-hidden="true" /> {label.name}
            </label>
          ))}
        </fieldset>
      )}
      <form className="docs-form docs-form--inline" onSubmit={add}>
        <label>
          {t('documents.screens.new_label')}
          <input
            value={name}
            maxLength={LIBRARY_LIMITS.labelNameMax}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          {t('documents.screens.label_color')}
          <input type="color" value={color} onChange={(event) => setColor(event.target.value)} />
        </label>
        <button type="submit" className="button">
          {t('documents.screens.add_label')}
        </button>
      </form>
      <div className="dialog__actions">
        <button type="button" className="button button--quiet" onClick={onClose}>
          {t('documents.screens.cancel')}
        </button>
        <button type="button" className="button" onClick={() => void save()}>
          {t('documents.screens.save')}
        </button>
      </div>
    </Dialog>
  )
}
