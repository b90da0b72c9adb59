import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { Route, Routes } from 'react-router'
import { Shell } from './components/Shell.js'

/**
 * Each screen is its own chunk, loaded when its route is first visited: the form screen a user
 * opens from a link downloads the shell and the form, not the users administration or the login.
 * The lazy components are made once, here: made during a render, each render would remount the page.
 */
const screen = (load: () => Promise<ComponentType>) => lazy(async () => ({ default: await load() }))

const Login = screen(() => import('./pages/LoginPage.js').then((m) => m.LoginPage))
const ForgetPassword = screen(() => import('./pages/ForgetPasswordPage.js').then((m) => m.ForgetPasswordPage))
const Code2FA = screen(() => import('./pages/Code2FAPage.js').then((m) => m.Code2FAPage))
const Forms = screen(() => import('./pages/FormsPage.js').then((m) => m.FormsPage))
const Process = screen(() => import('./pages/ProcessPage.js').then((m) => m.ProcessPage))
const Consult = screen(() => import('./pages/ConsultPage.js').then((m) => m.ConsultPage))
const DocumentManagement = screen(() =>
  import('./pages/DocumentManagementPage.js').then((m) => m.DocumentManagementPage)
)
const Status = screen(() => import('./pages/StatusPage.js').then((m) => m.StatusPage))
const Users = screen(() => import('./pages/UsersPage.js').then((m) => m.UsersPage))
const UserProfile = screen(() => import('./pages/UserProfilePage.js').then((m) => m.UserProfilePage))
const PluginSettings = screen(() => import('./pages/PluginSettingsPage.js').then((m) => m.PluginSettingsPage))
const Preview = screen(() => import('./pages/PreviewPage.js').then((m) => m.PreviewPage))
// Any other path: the enabled plugins' screens (virtual:tramita-screens), else the 404 page.
const PluginScreens = screen(() => import('./components/PluginScreens.js').then((m) => m.PluginScreens))

function page(Screen: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<div className="route-loading" role="status" aria-busy="true" />}>
      <Screen />
    </Suspense>
  )
}

/**
 * The routes of spec 000 §2 that are built, plus /consult, /status, /users, /plugin_settings, the
 * plugins' screens and a 404. Later, with their screens (until then they are the 404 page, not a
 * placeholder): /static/public/:token (the public shared-document viewer) and /confirmretention
 * (retention confirmation), spec 000 §2 and 001 §2.
 */
export function App() {
  return (
    <Routes>
      {/* The designer's preview frame: the form alone, without the shell. */}
      <Route path="preview" element={page(Preview)} />
      <Route element={<Shell />}>
        {/* Sign-in; a signed-in user is sent to the home, /document_management. */}
        <Route index element={page(Login)} />
        <Route path="forgetpassword/:token" element={page(ForgetPassword)} />
        <Route path="static/code2FA" element={page(Code2FA)} />
        <Route path="forms/:case" element={page(Forms)} />
        <Route path="process" element={page(Process)} />
        <Route path="consult" element={page(Consult)} />
        <Route path="document_management" element={page(DocumentManagement)} />
        <Route path="status" element={page(Status)} />
        <Route path="users" element={page(Users)} />
        <Route path="users/:id" element={page(UserProfile)} />
        <Route path="plugin_settings" element={page(PluginSettings)} />
        <Route path="*" element={page(PluginScreens)} />
      </Route>
    </Routes>
  )
}
