import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { I18nextProvider } from 'react-i18next'
import { App } from './App.js'
import { createDesignerI18n, initialLanguage } from './i18n/index.js'
import '@tramita/web/tokens.css'
import '@tramita/web/shell.css'
import './styles.css'

const language = initialLanguage()
document.documentElement.lang = language

const i18n = await createDesignerI18n(language)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      {/* Vite's base (/designer/) without its trailing slash: the core serves the designer there. */}
      <BrowserRouter basename={import.meta.env.BASE_URL.replace(/\/$/, '')}>
        <App />
      </BrowserRouter>
    </I18nextProvider>
  </StrictMode>
)
