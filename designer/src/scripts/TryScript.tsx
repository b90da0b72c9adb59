/**
 * "Try it": runs a script in the browser sandbox (QuickJS in a Web Worker, loaded on the first run)
 * against sample values, and shows its value and effects, or its error, as the runtime would get them.
 */
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldTypeRegistry } from '@tramita/contract'
import type { Json, ScriptResult, ScriptRunner } from '@tramita/sandbox'
import { sampleVariables, type ScriptFormConfig } from './samples.js'
import './scripts.css'

export interface TryScriptProps {
  source: string
  form: ScriptFormConfig
  registry?: FieldTypeRegistry
  /** Deadline of a run in ms (default: the sandbox's, 100 ms, as in the runtime). */
  timeoutMs?: number
}

let runner: Promise<ScriptRunner> | undefined

/** One worker sandbox for the designer page, started on the first run. */
function sandbox(): Promise<ScriptRunner> {
  runner ??= import('@tramita/sandbox/browser').then(({ createWorkerSandbox }) => createWorkerSandbox())
  // A failed load may succeed later (the network came back): do not keep the failure.
  runner.catch(() => (runner = undefined))
  return runner
}

type Outcome =
  { state: 'running' } | { state: 'done'; result: ScriptResult } | { state: 'bad-samples'; message: string }

const pretty = (value: unknown) => JSON.stringify(value, null, 2)

export function TryScript({ source, form, registry, timeoutMs }: TryScriptProps) {
  const { t } = useTranslation()
  const initial = useMemo(() => pretty(sampleVariables(form, registry)), [form, registry])
  const [samples, setSamples] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const text = samples ?? initial

  async function run() {
    let vars: Record<string, Json>
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error(t('scripts.samples_object'))
      vars = parsed as Record<string, Json>
    } catch (error) {
      setOutcome({ state: 'bad-samples', message: error instanceof Error ? error.message : String(error) })
      return
    }
    setOutcome({ state: 'running' })
    let result: ScriptResult
    try {
      result = await (await sandbox()).run(source, vars, timeoutMs === undefined ? undefined : { timeoutMs })
    } catch (error) {
      result = {
        ok: false,
        error: { code: 'SANDBOX_UNAVAILABLE', message: error instanceof Error ? error.message : String(error) },
      }
    }
    setOutcome({ state: 'done', result })
  }

  return (
    <section className="try-script" aria-label={t('scripts.try_title')}>
      <h3>{t('scripts.try_title')}</h3>
      <label className="try-script-samples">
        <span>{t('scripts.samples')}</span>
        <textarea
          value={text}
          spellCheck={false}
          rows={Math.min(12, text.split('\n').length + 1)}
          onChange={(event) => setSamples(event.target.value)}
        />
      </label>
      <div className="try-script-actions">
        <button type="button" onClick={() => void run()} disabled={outcome?.state === 'running'}>
          {outcome?.state === 'running' ? t('scripts.running') : t('scripts.run')}
        </button>
        <button type="button" onClick={() => setSamples(null)} disabled={samples === null}>
          {t('scripts.reset_samples')}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {outcome?.state === 'bad-samples' && (
          <p className="try-script-error">
            {t('scripts.bad_samples')}: {outcome.message}
          </p>
        )}
        {outcome?.state === 'done' && <Result result={outcome.result} />}
      </div>
    </section>
  )
}

function Result({ result }: { result: ScriptResult }) {
  const { t } = useTranslation()
  if (!result.ok) {
    return (
      <div className="try-script-error">
        <strong>{t(`scripts.errors.${result.error.code}`)}</strong> <code>{result.error.code}</code>
        <pre>{result.error.message}</pre>
      </div>
    )
  }
  return (
    <div className="try-script-result">
      <p>{t('scripts.result')}</p>
      <pre>{pretty(result.value)}</pre>
      <p>{t('scripts.effects')}</p>
      {result.effects.length === 0 ? (
        <p className="try-script-none">{t('scripts.no_effects')}</p>
      ) : (
        <ol>
          {result.effects.map((effect, i) => {
            const { op, field, ...rest } = effect
            return (
              <li key={i}>
                <code>
                  {op}({JSON.stringify(field)}, {JSON.stringify(Object.values(rest)[0])})
                </code>
              </li>
            )
          })}
        </ol>
      )}
    </div>
  )
}
