/**
 * The designer's shell: the apps' shared header (@tramita/web: its brand, the way back to the
 * runtime, the language switch) and toasts. Without a session it sends the user to sign in at the
 * runtime's root (same origin, same session); with one, the list of forms and each form read through
 * the model.
 */
import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { useTranslation } from 'react-i18next'
import { readSession } from '@tramita/web/api'
import { Header } from '@tramita/web/Header'
import { LanguageSwitch } from '@tramita/web/LanguageSwitch'
import { Toasts } from '@tramita/web/Toasts'
import { FormsPage } from './pages/FormsPage.js'
import { SignInNeeded } from './pages/SignInNeeded.js'

// The form brings the model and the contract's validation (ajv, acorn): the list does not need them.
const FormPage = lazy(() => import('./pages/FormPage.js').then((module) => ({ default: module.FormPage })))

const ITEMS = [{ to: '/', key: 'forms', end: true }]

/** The runtime's home, where sign-in lands: another app on the same origin, so a plain link. */
const APP_HOME = '/document_management'

export function App() {
  const { t } = useTranslation()
  const signedIn = Boolean(readSession().token)
  return (
    <>
      <Header
        brand={
          <>
            Tramita <span className="brand__subtitle">{t('title')}</span>
          </>
        }
        items={ITEMS}
        navEnd={
          <a className="nav__link" href={APP_HOME} data-testid="nav-app">
            {t('nav.app')}
          </a>
        }
      >
        <LanguageSwitch />
      </Header>
      <main className="page">
        {signedIn ? (
          <Routes>
            <Route path="/" element={<FormsPage />} />
            <Route
              path="/forms/:id"
              element={
                <Suspense fallback={<p aria-busy="true">{t('loading')}</p>}>
                  <FormPage />
                </Suspense>
              }
            />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        ) : (
          <SignInNeeded />
        )}
      </main>
      <Toasts />
    </>
  )
}
