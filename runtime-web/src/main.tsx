import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { I18nextProvider } from 'react-i18next'
import { createI18n } from '@tramita/i18n'
import { App } from './App.js'
import { initialLanguage } from '@tramita/web/language'
import '@tramita/web/tokens.css'
import '@tramita/web/shell.css'
import './styles.css'

const language = initialLanguage()
document.documentElement.lang = language

const i18n = await createI18n(language, { react: { useSuspense: false } })

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </I18nextProvider>
  </StrictMode>
)
