/**
 * The form screen's body (spec 000 §2): view selector (form, vars, doc, doc_link), the navbar and
 * lateral menu built from named sections, the page (or every page when the form displays as one
 * scroll), the missing-required list, the bottom bar and the take-decision prompt.
 */
import { lazy, Suspense, useState, useSyncExternalStore } from 'react'
import './form.css'
import { useTranslation } from 'react-i18next'
import type { Device } from '@tramita/contract'
import { FormContext, useForm, useFormSnapshot, type FormContextValue } from './context.js'
import { BottomBar, type BottomBarProps } from './BottomBar.js'
import type { Decision } from './DecisionPrompt.js'
import { MissingRequired } from './MissingRequired.js'
import { PageView, Rows } from './PageView.js'
import { useFileSrc } from './useFileSrc.js'

export type FormView = 'form' | 'vars' | 'doc' | 'doc_link'

// The decision prompt (and its confirmation) comes with the first "take decision", not with the form.
const DecisionPrompt = lazy(() => import('./DecisionPrompt.js').then((m) => ({ default: m.DecisionPrompt })))

export interface FormRuntimeProps extends Omit<BottomBarProps, 'onDecide'> {
  context: FormContextValue
  vars: Record<string, unknown>
  docPath: string
  docPathLink: string
  decisions: Decision[]
  /** Resolves true once the decision is taken; false keeps the prompt open with what was typed. */
  onDecision(decision: Decision, comment: string): Promise<boolean>
}

// The modal and the download panel only actions open: they come with a form that has actions.
const ActionOverlays = lazy(() => import('./ActionOverlays.js'))

/** What code loaded later draws over the form (the actions' progress bar, camera and capture). */
function OverlayLayer() {
  const { overlays } = useForm().store
  const Layer = useSyncExternalStore(overlays.subscribe, overlays.layer)
  return Layer ? <Layer /> : null
}

function SectionBar({ sectionId, kind, size }: { sectionId: string; kind: 'navbar' | 'menu'; size: number }) {
  const { store } = useForm()
  const page = store.sectionPage(sectionId)
  if (!page) return null
  return kind === 'navbar' ? (
    <header className="fnavbar" style={{ minHeight: size }} data-testid="form-navbar">
      <Rows page={page} />
    </header>
  ) : (
    <aside className="fmenu" style={{ width: size }} data-testid="form-menu">
      <Rows page={page} />
    </aside>
  )
}

function VarsView({ vars }: { vars: Record<string, unknown> }) {
  const { t } = useTranslation()
  const entries = Object.entries(vars)
  return (
    <table className="table fvars" data-testid="form-vars">
      <thead>
        <tr>
          <th scope="col">{t('form_runtime.variable')}</th>
          <th scope="col">{t('form_runtime.value')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The case's document: stored files need the session's token header, so it shows from an object URL. */
function DocFrame({ services, path, title }: { services: FormContextValue['services']; path: string; title: string }) {
  const src = useFileSrc(services, path)
  return <iframe className="fdoc" title={title} src={src} data-path={path} data-testid="form-doc" />
}

function Body({ device, ...props }: FormRuntimeProps & { device: Device }) {
  const { t } = useTranslation()
  const { store, services } = props.context
  // Only the page shown is read here; fields, bars and the missing list follow the store themselves.
  useFormSnapshot(store, (s) => s.pagePositionNow())
  const [view, setView] = useState<FormView>('form')
  const [deciding, setDeciding] = useState(false)
  const views: FormView[] = [
    'form',
    'vars',
    ...(props.docPath ? (['doc'] as const) : []),
    ...(props.docPathLink ? (['doc_link'] as const) : []),
  ]
  const pages = store.config.form.pages
  const shown = store.config.form.display === 'wizard' ? [store.currentPage()] : store.pages
  const appInfo = pages[store.currentPage()]?.app_info
  const menuOn = Boolean(appInfo?.lateralMenu.enable && appInfo.lateralMenu.section) && device !== 'mobile'
  return (
    <div
      className="fruntime"
      data-mode={store.mode}
      data-device={device}
      style={{ background: store.config.form.body.style.background }}
    >
      <div className="fviews" role="tablist" aria-label={t('form_runtime.views')}>
        {views.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={view === name}
            className={`fviews__tab${view === name ? ' fviews__tab--on' : ''}`}
            onClick={() => setView(name)}
            data-testid={`view-${name}`}
          >
            {t(`form_runtime.view.${name}`)}
          </button>
        ))}
      </div>
      {view === 'vars' && <VarsView vars={props.vars} />}
      {(view === 'doc' || view === 'doc_link') && (
        <DocFrame
          services={services}
          title={t(`form_runtime.view.${view}`)}
          path={view === 'doc' ? props.docPath : props.docPathLink}
        />
      )}
      {view === 'form' && (
        <>
          {appInfo?.navbar.enable && appInfo.navbar.section && (
            <SectionBar sectionId={appInfo.navbar.section} kind="navbar" size={appInfo.navbar.height} />
          )}
          <div className={menuOn ? 'fwith-menu' : undefined}>
            {menuOn && (
              <SectionBar sectionId={appInfo!.lateralMenu.section} kind="menu" size={appInfo!.lateralMenu.width} />
            )}
            <div className="fpages">
              {shown.map((index, i) => (
                <PageView
                  key={index}
                  page={pages[index]!}
                  device={device}
                  body={store.config.form.body.style}
                  footer={i === shown.length - 1 ? <MissingRequired /> : undefined}
                />
              ))}
            </div>
          </div>
          <BottomBar {...props} onDecide={() => setDeciding(true)} />
        </>
      )}
      {store.config.validations.actions.length > 0 && (
        <Suspense fallback={null}>
          <ActionOverlays Rows={Rows} />
        </Suspense>
      )}
      <OverlayLayer />
      {deciding && (
        <Suspense fallback={null}>
          <DecisionPrompt
            decisions={props.decisions}
            busy={props.saving}
            onChoose={(decision, comment) =>
              void props.onDecision(decision, comment).then((taken) => {
                if (taken) setDeciding(false)
              })
            }
            onClose={() => setDeciding(false)}
          />
        </Suspense>
      )}
    </div>
  )
}

export function FormRuntime(props: FormRuntimeProps) {
  return (
    <FormContext.Provider value={props.context}>
      <Body {...props} device={props.context.device} />
    </FormContext.Provider>
  )
}
