import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import type { EnumSetting, SettingDeclaration } from '@tramita/plugin-api/settings'
import { BYTES_PER, bytesShown, bytesText } from '@tramita/plugin-api/settings'
import { call, CallError } from '@tramita/web/api'
import { Page } from '../components/Page.js'

/** A setting as GET /inside/plugin_settings answers it: its declaration (an enum's options labelled), texts and value. */
type Setting = (
  | Exclude<SettingDeclaration, EnumSetting>
  | (Omit<EnumSetting, 'options'> & { options: { value: string; label: string }[] })
) & {
  key: string
  label: string
  help: string
  value: unknown
}
interface PluginEntry {
  id: string
  title: string
  settings: Setting[]
}

type ByteUnit = keyof typeof BYTES_PER
/** What a field holds while it is edited: text for numbers (the server judges it), a flag, a choice. */
type Draft = string | boolean | { amount: string; unit: ByteUnit }

function draftOf(setting: Setting): Draft {
  if (setting.type === 'boolean') return setting.value === true
  if (setting.type === 'integer' && setting.unit === 'bytes') {
    const shown = bytesShown(Number(setting.value))
    return { amount: String(shown.amount), unit: shown.unit }
  }
  return String(setting.value ?? '')
}

/** A whole number typed in; anything else is sent as typed, for the server to refuse with its reason. */
function numberOf(text: string): unknown {
  const trimmed = text.trim()
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed
}

function valueOf(setting: Setting, draft: Draft): unknown {
  if (typeof draft === 'boolean') return draft
  if (typeof draft === 'object') {
    const amount = Number(draft.amount.trim().replace(',', '.'))
    return draft.amount.trim() !== '' && Number.isFinite(amount)
      ? Math.round(amount * BYTES_PER[draft.unit])
      : draft.amount
  }
  return setting.type === 'integer' ? numberOf(draft) : draft
}

/** The default as a person reads it: sizes in MB or GB, days as days, an option by its label. */
function shownDefault(setting: Setting, t: TFunction, language: string): string {
  if (setting.type === 'integer') {
    const number = new Intl.NumberFormat(language).format(setting.default)
    if (setting.unit === 'bytes') return bytesText(setting.default, language)
    return setting.unit ? t(`plugin_settings.amount.${setting.unit}`, { count: setting.default, number }) : number
  }
  if (setting.type === 'enum') return setting.options.find((o) => o.value === setting.default)?.label ?? setting.default
  return String(setting.default)
}

/** Did the person change this field? (A size shown rounded is not a change until edited.) */
const edited = (setting: Setting, draft: Draft) => JSON.stringify(draft) !== JSON.stringify(draftOf(setting))

/** One setting: its label, input (and unit), help and default. */
function SettingField({
  plugin,
  setting,
  draft,
  invalid,
  onChange,
}: {
  plugin: string
  setting: Setting
  draft: Draft
  invalid: boolean
  onChange: (draft: Draft) => void
}) {
  const { t, i18n } = useTranslation()
  const id = `setting-${plugin}-${setting.key}`
  const helpId = `${id}-help`
  const described = setting.help || setting.type !== 'boolean' ? helpId : undefined
  const common = { id, name: setting.key, 'aria-describedby': described, 'aria-invalid': invalid || undefined }
  const note = (
    <p className="plugin-settings__help" id={helpId}>
      {setting.help}
      {setting.type !== 'boolean' && (
        <span className="plugin-settings__default">
          {t('plugin_settings.default', { value: shownDefault(setting, t, i18n.language) })}
        </span>
      )}
    </p>
  )

  if (setting.type === 'boolean') {
    return (
      <div className="plugin-settings__field" data-setting={setting.key}>
        <label className="check" htmlFor={id}>
          <input {...common} type="checkbox" checked={draft === true} onChange={(e) => onChange(e.target.checked)} />
          {setting.label}
        </label>
        {setting.help && note}
      </div>
    )
  }
  let control
  if (setting.type === 'enum') {
    control = (
      <select {...common} value={String(draft)} onChange={(e) => onChange(e.target.value)}>
        {setting.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    )
  } else if (setting.type === 'integer') {
    // A size: an amount in MB or GB (the unit a choice of its own); else a whole number and its unit.
    const size = typeof draft === 'object' ? draft : null
    control = (
      <span className="plugin-settings__amount">
        <input
          {...common}
          type="number"
          inputMode={size ? 'decimal' : 'numeric'}
          step={size ? 'any' : 1}
          min={size ? 0 : setting.min}
          max={size ? undefined : setting.max}
          value={size ? size.amount : String(draft)}
          onChange={(e) => onChange(size ? { ...size, amount: e.target.value } : e.target.value)}
        />
        {size ? (
          <select
            aria-label={t('plugin_settings.unit_of', { label: setting.label })}
            value={size.unit}
            onChange={(e) => onChange({ ...size, unit: e.target.value as ByteUnit })}
          >
            {(Object.keys(BYTES_PER) as ByteUnit[]).map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        ) : (
          setting.unit && <span className="plugin-settings__unit">{t(`plugin_settings.units.${setting.unit}`)}</span>
        )}
      </span>
    )
  } else {
    control = (
      <input
        {...common}
        type="text"
        maxLength={setting.maxLength}
        value={String(draft)}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  }
  return (
    <div className="plugin-settings__field" data-setting={setting.key}>
      <label htmlFor={id}>{setting.label}</label>
      {control}
      {note}
    </div>
  )
}

/** A plugin's settings as one form: only what changed is sent; the server's refusal is shown beside it. */
function PluginForm({ entry, onSaved }: { entry: PluginEntry; onSaved: (entry: PluginEntry) => void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const [drafts, setDrafts] = useState(() => Object.fromEntries(entry.settings.map((s) => [s.key, draftOf(s)])))
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; invalid: string[] } | null>(null)

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const patch: Record<string, unknown> = {}
    for (const setting of entry.settings) {
      const draft = drafts[setting.key]!
      if (edited(setting, draft)) patch[setting.key] = valueOf(setting, draft)
    }
    if (Object.keys(patch).length === 0) {
      setOutcome({ ok: true, text: t('plugin_settings.unchanged'), invalid: [] })
      return
    }
    setBusy(true)
    try {
      const body = await call<PluginEntry>('PUT', `/inside/plugin_settings/${entry.id}`, { settings: patch })
      if (body.data) {
        onSaved(body.data)
        setDrafts(Object.fromEntries(body.data.settings.map((s) => [s.key, draftOf(s)])))
      }
      setOutcome({ ok: true, text: t('plugin_settings.saved'), invalid: [] })
    } catch (error) {
      const problems = error instanceof CallError ? (error.body as { problems?: { key: string }[] })?.problems : null
      setOutcome({
        ok: false,
        text: error instanceof Error ? error.message : String(error),
        invalid: problems?.map((p) => p.key) ?? [],
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="plugin-settings" aria-labelledby={titleId} data-plugin={entry.id}>
      <h2 id={titleId}>{entry.title}</h2>
      <form className="plugin-settings__form" onSubmit={save} noValidate>
        {entry.settings.map((setting) => (
          <SettingField
            key={setting.key}
            plugin={entry.id}
            setting={setting}
            draft={drafts[setting.key]!}
            invalid={outcome?.invalid.includes(setting.key) ?? false}
            onChange={(draft) => {
              setDrafts((current) => ({ ...current, [setting.key]: draft }))
              setOutcome(null)
            }}
          />
        ))}
        <div className="plugin-settings__actions">
          <button type="submit" className="button" disabled={busy}>
            {t('plugin_settings.save')}
          </button>
          {outcome && (
            <p
              className={outcome.ok ? 'notice notice--ok' : 'notice notice--error'}
              role={outcome.ok ? 'status' : 'alert'}
              data-testid="plugin-settings-outcome"
            >
              {outcome.text}
            </p>
          )}
        </div>
      </form>
    </section>
  )
}

/**
 * Route /plugin_settings (administrators): each enabled plugin's settings (GET /inside/plugin_settings,
 * texts in the page's language) as a form of labelled inputs, saved one plugin at a time.
 */
export function PluginSettingsPage() {
  const { t, i18n } = useTranslation()
  const [plugins, setPlugins] = useState<PluginEntry[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    setProblem(null)
    call<{ plugins: PluginEntry[] }>('GET', '/inside/plugin_settings')
      .then((body) => current && setPlugins(body.data?.plugins ?? []))
      .catch((error: Error) => {
        if (!current) return
        setPlugins([])
        setProblem(error.message)
      })
    return () => {
      current = false
    }
  }, [i18n.language])

  return (
    <Page title={t('plugin_settings.title')} testId="page-plugin-settings">
      <p className="lead">{t('plugin_settings.lead')}</p>
      {problem && (
        <p className="notice notice--error" role="alert">
          {problem}
        </p>
      )}
      <div aria-busy={plugins === null}>
        {plugins?.length === 0 && !problem && <p>{t('plugin_settings.none')}</p>}
        {plugins?.map((entry) => (
          <PluginForm
            key={entry.id}
            entry={entry}
            onSaved={(saved) => setPlugins((all) => all?.map((p) => (p.id === saved.id ? saved : p)) ?? null)}
          />
        ))}
      </div>
    </Page>
  )
}
