import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { DesignDocument } from '../model/index.js'
import type { Language } from '@tramita/i18n'

type Mode = 'new' | 'enter' | 'approve' | 'see'
const MODES: Mode[] = ['new', 'enter', 'approve', 'see']
/** Frame widths inside each device's range of the runtime (767 / 1024 thresholds). */
const WIDTHS = { mobile: 375, tablet: 820, computer: 1200 } as const
type Device = keyof typeof WIDTHS

/**
 * The real runtime renderer on the document as it is designed: runtime-web's /preview route in a
 * frame of the device's width, fed by postMessage (same origin). Case, step and sample values are
 * the designer's choice; nothing is saved.
 */
export function PreviewView({ doc, language }: { doc: DesignDocument; language?: Language }) {
  const { t } = useTranslation()
  const frame = useRef<HTMLIFrameElement>(null)
  const [device, setDevice] = useState<Device>('computer')
  const [mode, setMode] = useState<Mode>('new')
  const steps = useMemo(
    () =>
      ((doc.process.steps ?? []) as { id: string; label?: string; kind?: string }[]).filter((s) =>
        mode === 'approve' ? s.kind === 'approve' : s.kind !== 'approve'
      ),
    [doc.process, mode]
  )
  const [task, setTask] = useState('')
  const [valuesText, setValuesText] = useState('{}')
  // Sent again only when something it shows changed: each message restarts the frame's form.
  const values = useMemo(() => {
    try {
      const parsed: unknown = JSON.parse(valuesText || '{}')
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
    } catch {
      return null
    }
  }, [valuesText])

  const send = useCallback(() => {
    frame.current?.contentWindow?.postMessage(
      {
        type: 'tramita:preview',
        jsonconfig: doc.jsonconfig,
        mode,
        task: task || steps[0]?.id,
        values: values ?? {},
        language,
      },
      window.location.origin
    )
  }, [doc.jsonconfig, mode, task, steps, values, language])

  // The frame says when it listens; after that every change is sent again.
  useEffect(() => {
    const ready = (event: MessageEvent) => {
      if (event.origin === window.location.origin && event.data?.type === 'tramita:preview-ready') send()
    }
    window.addEventListener('message', ready)
    return () => window.removeEventListener('message', ready)
  }, [send])
  useEffect(send, [send])

  return (
    <section className="preview-view" aria-label={t('preview.title')} data-testid="preview-view">
      <div className="toolbar">
        <span role="radiogroup" aria-label={t('preview.device')}>
          {(Object.keys(WIDTHS) as Device[]).map((one) => (
            <label key={one}>
              <input type="radio" name="preview-device" checked={device === one} onChange={() => setDevice(one)} />{' '}
              {t(`preview.${one}`)}
            </label>
          ))}
        </span>
        <label>
          {t('preview.case')}{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as Mode)} data-testid="preview-case">
            {MODES.map((m) => (
              <option key={m} value={m}>
                {t(`preview.case_${m}`)}
              </option>
            ))}
          </select>
        </label>
        {mode !== 'new' && steps.length > 0 && (
          <label>
            {t('preview.step')}{' '}
            <select value={task} onChange={(e) => setTask(e.target.value)}>
              {steps.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label || s.id}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <label className="preview-values">
        {t('preview.values')}
        <textarea value={valuesText} onChange={(e) => setValuesText(e.target.value)} spellCheck={false} rows={3} />
        {values === null && <span className="notice notice--error">{t('preview.values_invalid')}</span>}
      </label>
      <iframe
        ref={frame}
        title={t('preview.title')}
        src="/preview"
        className="preview-frame"
        style={{ width: WIDTHS[device] }}
        data-testid="preview-frame"
      />
    </section>
  )
}
