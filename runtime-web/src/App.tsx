import { lazy, Suspense, type ComponentType } from 'react'
import { Route, Routes } from 'react-router'
import { Shell } from './components/Shell.js'
import { NotFoundPage } from './pages/NotFoundPage.js'

/**
 * Each screen is its own chunk, loaded when its route is first visited: the form screen a user
 * opens from a link downloads the shell and the form, not the users administration or the login.
 */
function page(load: () => Promise<ComponentType>) {
  const Lazy = lazy(async () => ({ default: await load() }))
  return (
    <Suspense fallback={<div className="route-loading" role="status" aria-busy="true" />}>
      <Lazy />
    </Suspense>
  )
}

/** The routes of spec 000 §2, plus /status and a 404. */
export function App() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route index element={page(() => import('./pages/LoginPage.js').then((m) => m.LoginPage))} />
        <Route
          path="forgetpassword/:token"
          element={page(() => import('./pages/ForgetPasswordPage.js').then((m) => m.ForgetPasswordPage))}
        />
        <Route
          path="static/public/:token"
          element={page(() => import('./pages/PublicDocumentPage.js').then((m) => m.PublicDocumentPage))}
        />
        <Route
          path="static/code2FA"
          element={page(() => import('./pages/Code2FAPage.js').then((m) => m.Code2FAPage))}
        />
        <Route
          path="confirmretention"
          element={page(() => import('./pages/ConfirmRetentionPage.js').then((m) => m.ConfirmRetentionPage))}
        />
        <Route path="forms/:case" element={page(() => import('./pages/FormsPage.js').then((m) => m.FormsPage))} />
        <Route path="process" element={page(() => import('./pages/ProcessPage.js').then((m) => m.ProcessPage))} />
        <Route path="consult" element={page(() => import('./pages/ConsultPage.js').then((m) => m.ConsultPage))} />
        <Route
          path="document_management"
          element={page(() => import('./pages/DocumentManagementPage.js').then((m) => m.DocumentManagementPage))}
        />
        <Route path="status" element={page(() => import('./pages/StatusPage.js').then((m) => m.StatusPage))} />
        <Route path="users" element={page(() => import('./pages/UsersPage.js').then((m) => m.UsersPage))} />
        <Route
          path="users/:id"
          element={page(() => import('./pages/UserProfilePage.js').then((m) => m.UserProfilePage))}
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  )
}
