/**
 * Undo and redo, the device the widths are drawn and edited for, and what to do with the selection:
 * its width on that device (1 to 12), duplicate, delete.
 */
import { useTranslation } from 'react-i18next'
import { DEVICES, GRID_COLUMNS, type Device } from '@tramita/contract'
import { copyNames, deleteItems, duplicateItems, resizeItems, type Outline } from '../model/index.js'
import type { Design } from './use_design.js'
import { AUTONYMS, LANGUAGES, isLanguage } from '@tramita/i18n'

export function Toolbar(props: { design: Design; device: Device; onDevice: (device: Device) => void; read: Outline }) {
  const { design, device, onDevice, read } = props
  const { t } = useTranslation()
  const selected = design.selection
  const first = [...read.pages.flatMap((page) => page.rows.flat()), ...read.unplaced].find(
    (item) => item.name === selected[0]
  )
  const duplicate = () => {
    const copies = copyNames(design.doc.jsonconfig, selected)
    if (design.run(duplicateItems(selected))) design.setSelection([...copies.values()])
  }
  const resize = (value: string) => {
    const columns = Number(value)
    // Typing "10" is one step of history, not two.
    if (value !== '' && Number.isFinite(columns)) {
      design.run(resizeItems(selected, device, columns), `resize ${device} ${selected.join(' ')}`)
    }
  }
  return (
    <div className="toolbar" role="toolbar" aria-label={t('toolbar')}>
      <button type="button" onClick={design.undo} disabled={!design.canUndo} data-testid="undo" title="Ctrl+Z">
        {t('undo')}
      </button>
      <button type="button" onClick={design.redo} disabled={!design.canRedo} data-testid="redo" title="Ctrl+Shift+Z">
        {t('redo')}
      </button>
      <span className="toolbar__group" role="radiogroup" aria-label={t('device')}>
        {DEVICES.map((one) => (
          <label key={one}>
            <input type="radio" name="device" checked={one === device} onChange={() => onDevice(one)} />{' '}
            {t(`device_${one}`)}
          </label>
        ))}
      </span>
      <label className="toolbar__group">
        {t('texts_language')}{' '}
        <select
          value={design.textLanguage ?? ''}
          onChange={(event) => design.setTextLanguage(isLanguage(event.target.value) ? event.target.value : undefined)}
          data-testid="texts-language"
        >
          <option value="">{t('texts_own')}</option>
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {AUTONYMS[language]}
            </option>
          ))}
        </select>
      </label>
      <span className="toolbar__group" data-testid="selection-actions">
        <span className="muted">{t('selected', { count: selected.length })}</span>
        <label>
          {t('width')}{' '}
          <input
            type="number"
            min={1}
            max={GRID_COLUMNS}
            disabled={!first}
            value={first ? first.columns[device] : ''}
            onChange={(event) => resize(event.target.value)}
            data-testid="width"
          />
        </label>
        <button type="button" disabled={!selected.length} onClick={duplicate} data-testid="duplicate">
          {t('duplicate')}
        </button>
        <button
          type="button"
          disabled={!selected.length}
          onClick={() => design.run(deleteItems(selected))}
          data-testid="delete"
        >
          {t('delete')}
        </button>
      </span>
    </div>
  )
}
