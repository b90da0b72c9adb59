/**
 * The enabled plugins' screens (virtual:tramita-screens), mounted under the shell's catch-all route:
 * this component and the screens' list load only when a path no core route knows is opened, so the
 * core's routes (the form's above all) carry none of it. Each screen is a lazy chunk, shown once its
 * plugin's texts (`<plugin>.*`) are loaded; a screen that is not public sends a visitor to sign in.
 */
import { lazy, Suspense, use, type ComponentType, type ReactNode } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { useTranslation } from 'react-i18next'
import plugins from 'virtual:tramita-screens'
import { readSession } from '@tramita/web/api'
import { shownLanguage } from '@tramita/web/language'
import { ScreenHostProvider, type ScreenHost } from '@tramita/web/screen-host'
import { areaTextsLoaded } from '../lib/area_texts.js'
import { NotFoundPage } from '../pages/NotFoundPage.js'

const FilePreview = lazy(() => import('./FilePreview.js').then((m) => ({ default: m.FilePreview })))

/** The viewers, lent to the screens (they may not import runtime-web). */
const HOST: ScreenHost = {
  FilePreview: (props) => (
    <Suspense fallback={null}>
      <FilePreview {...props} />
    </Suspense>
  ),
}

type Texts = (typeof plugins)[number]['texts']

/** Suspends until the plugin's texts of the page's language are in i18next. */
function WithTexts({ plugin, texts, children }: { plugin: string; texts: Texts; children: ReactNode }) {
  const { i18n } = useTranslation()
  if (texts) use(areaTextsLoaded(i18n, plugin, texts, shownLanguage(i18n.language)))
  return children
}

const routes = plugins.flatMap(({ plugin, screens, texts }) =>
  screens.map((screen) => {
    // Made once, here: a lazy component made during a render would remount the screen every time.
    const Screen = lazy(async () => ({ default: (await screen.load()).default as ComponentType }))
    return { plugin, texts, path: screen.path, isPublic: Boolean(screen.public), Screen }
  })
)

export function PluginScreens() {
  const signedIn = Boolean(readSession().token)
  return (
    <Routes>
      {routes.map(({ plugin, texts, path, isPublic, Screen }) => (
        <Route
          key={`${plugin}:${path}`}
          path={path}
          element={
            isPublic || signedIn ? (
              <ScreenHostProvider value={HOST}>
                <Suspense fallback={<div className="route-loading" role="status" aria-busy="true" />}>
                  <WithTexts plugin={plugin} texts={texts}>
                    <Screen />
                  </WithTexts>
                </Suspense>
              </ScreenHostProvider>
            ) : (
              <Navigate to="/" replace />
            )
          }
        />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  )
}

/** The texts of these plugins in i18next (the home's links name plugin screens by their keys). */
export function pluginTextsLoaded(
  i18n: Parameters<typeof areaTextsLoaded>[0],
  ids: readonly string[]
): Promise<unknown> {
  const language = shownLanguage(i18n.language)
  return Promise.all(
    plugins
      .filter(({ plugin, texts }) => texts && ids.includes(plugin))
      .map(({ plugin, texts }) => areaTextsLoaded(i18n, plugin, texts!, language))
  )
}
