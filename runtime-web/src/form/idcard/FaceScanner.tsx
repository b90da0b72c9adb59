/**
 * A face of the ID card from a scanner (spec 000 §2, §7 scan): the machines the person may scan on,
 * from the enabled plugin that brings devices (form_devices.ts; none: nothing is drawn), one choice
 * shared by both faces and remembered for the next card, and the scan itself, cancellable. The scanned
 * file goes back to the dialog as an upload would (its `take`).
 */
import { useEffect, useRef, useState } from 'react'
import type { FormDeviceMachine } from '@tramita/plugin-api/web'
import { formDevicesEnabled, loadFormDevices } from '../form_devices.js'
import type { FaceSide } from './idcard.js'

/** The machine last scanned on, for the other face and the next card. */
const LAST_MACHINE_KEY = 'tramita.idcard.machine'

function remembered(): string | null {
  try {
    return globalThis.localStorage?.getItem(LAST_MACHINE_KEY) ?? null
  } catch {
    return null
  }
}

function remember(token: string) {
  try {
    globalThis.localStorage?.setItem(LAST_MACHINE_KEY, token)
  } catch {
    // Private browsing without storage: the choice lasts while the dialog is open.
  }
}

export interface Scanners {
  /** The machines that can scan now; null while loading. */
  machines: FormDeviceMachine[] | null
  /** Why the list could not be loaded (the server's message). */
  failure: string | null
  machine: string
  choose(token: string): void
  /** The face being scanned now (the dialog shows it busy), or null. */
  scanning: FaceSide | null
  /** Scans `side` on the chosen machine; resolves the file, or null when cancelled. */
  scan(side: FaceSide): Promise<File | null>
  cancel(): void
}

/** The scanners for `field` of the form `form`; null when no plugin brings devices or there is no form. */
export function useScanners(field: string, form: string | undefined): Scanners | null {
  const enabled = formDevicesEnabled && Boolean(form)
  const [machines, setMachines] = useState<FormDeviceMachine[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [machine, setMachine] = useState('')
  const [scanning, setScanning] = useState<FaceSide | null>(null)
  const running = useRef<AbortController | null>(null)

  useEffect(() => {
    if (!enabled) return
    let live = true
    loadFormDevices()!
      .then((d) => d.machines())
      .then(
        (all) => {
          if (!live) return
          const usable = all.filter((m) => m.canScan)
          setMachines(usable)
          const last = remembered()
          setMachine(usable.find((m) => m.token === last)?.token ?? usable[0]?.token ?? '')
        },
        (error: unknown) => {
          if (!live) return
          setMachines([])
          setFailure(error instanceof Error ? error.message : String(error))
        }
      )
    return () => {
      live = false
      // A dialog closed while scanning stops waiting for it.
      running.current?.abort()
    }
  }, [enabled])

  if (!enabled) return null
  return {
    machines,
    failure,
    machine,
    choose(token) {
      setMachine(token)
      remember(token)
    },
    scanning,
    async scan(side) {
      const controller = new AbortController()
      running.current = controller
      setScanning(side)
      try {
        const d = await loadFormDevices()!
        return await d.scan({ machine, field, form: form!, side, signal: controller.signal })
      } catch (error) {
        if (controller.signal.aborted) return null
        throw error
      } finally {
        if (running.current === controller) running.current = null
        setScanning(null)
      }
    },
    cancel() {
      running.current?.abort()
    },
  }
}

export interface FaceScannerProps {
  side: FaceSide
  scanners: Scanners
  /** Another face is being stored or scanned: this one waits. */
  disabled: boolean
  t: (key: string) => string
  onScan(side: FaceSide): void
}

/** A face's scanner controls: the machine (shared by both faces), Scan, and Cancel while it scans. */
export function FaceScanner({ side, scanners, disabled, t, onScan }: FaceScannerProps) {
  const id = `idcard-${side}-machine`
  if (scanners.machines === null) return <p className="muted">{t('idcard.machines_loading')}</p>
  // Nobody without a scanner is shown one to miss; a list that failed says why.
  if (scanners.machines.length === 0) {
    return scanners.failure ? <p className="muted">{scanners.failure}</p> : null
  }
  if (scanners.scanning === side) {
    return (
      <div className="media-actions" role="status">
        <span>{t('idcard.scanning')}</span>
        <button type="button" className="media-button" onClick={scanners.cancel} data-testid={`idcard-${side}-cancel`}>
          {t('idcard.scan_cancel')}
        </button>
      </div>
    )
  }
  return (
    <div className="media-actions idcard-scanner">
      <label htmlFor={id}>{t('idcard.machine')}</label>
      <select
        id={id}
        value={scanners.machine}
        disabled={disabled}
        onChange={(event) => scanners.choose(event.currentTarget.value)}
        data-testid={id}
      >
        {scanners.machines.map((m) => (
          <option key={m.token} value={m.token}>
            {m.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="media-button"
        disabled={disabled || !scanners.machine}
        onClick={() => onScan(side)}
        data-testid={`idcard-${side}-scan`}
      >
        {t('idcard.scan')}
      </button>
    </div>
  )
}
