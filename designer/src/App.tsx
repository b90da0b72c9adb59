/**
 * The designer's shell: without a session it sends the user to sign in at the runtime's root
 * (same origin, same session); with one, the list of forms and each form read through the model.
 */
import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { useTranslation } from 'react-i18next'
import { readSession } from './lib/api.js'
import { FormsPage } from './pages/FormsPage.js'
import { SignInNeeded } from './pages/SignInNeeded.js'

// The form brings the model and the contract's validation (ajv, acorn): the list does not need them.
const FormPage = lazy(() => import('./pages/FormPage.js').then((module) => ({ default: module.FormPage })))

export function App() {
  const { t } = useTranslation()
  const signedIn = Boolean(readSession().token)
  return (
    <>
      <header className="bar">
        <strong>Tramita</strong> · {t('title')}
      </header>
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
    </>
  )
}
