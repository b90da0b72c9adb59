import { Route, Routes } from 'react-router'
import { Shell } from './components/Shell.js'
import { Code2FAPage } from './pages/Code2FAPage.js'
import { ConfirmRetentionPage } from './pages/ConfirmRetentionPage.js'
import { DocumentManagementPage } from './pages/DocumentManagementPage.js'
import { ForgetPasswordPage } from './pages/ForgetPasswordPage.js'
import { FormsPage } from './pages/FormsPage.js'
import { LoginPage } from './pages/LoginPage.js'
import { NotFoundPage } from './pages/NotFoundPage.js'
import { ProcessPage } from './pages/ProcessPage.js'
import { PublicDocumentPage } from './pages/PublicDocumentPage.js'
import { StatusPage } from './pages/StatusPage.js'
import { UserProfilePage } from './pages/UserProfilePage.js'
import { UsersPage } from './pages/UsersPage.js'

/** The routes of spec 000 §2, plus /status and a 404. */
export function App() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route index element={<LoginPage />} />
        <Route path="forgetpassword/:token" element={<ForgetPasswordPage />} />
        <Route path="static/public/:token" element={<PublicDocumentPage />} />
        <Route path="static/code2FA" element={<Code2FAPage />} />
        <Route path="confirmretention" element={<ConfirmRetentionPage />} />
        <Route path="forms/:case" element={<FormsPage />} />
        <Route path="process" element={<ProcessPage />} />
        <Route path="document_management" element={<DocumentManagementPage />} />
        <Route path="status" element={<StatusPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="users/:id" element={<UserProfilePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  )
}
