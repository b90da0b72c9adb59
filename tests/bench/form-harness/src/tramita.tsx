/**
 * Tramita's side of the benchmark: the form screen as pages/FormsPage.tsx assembles it (withDefaults,
 * a FormStore with the browser's scripting, store.start(), FormRuntime), from a jsonconfig and its
 * first evaluation held in the bundle instead of the server's answer. Services are stubs: this form has no uploads or pickers.
 */
import { useMemo } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { coreRegistry, withDefaults } from '@tramita/contract'
import { createI18n } from '@tramita/i18n'
import { FormRuntime } from '../../../../runtime-web/src/form/FormRuntime.js'
import { createRendererRegistry } from '../../../../runtime-web/src/form/renderers/index.js'
import { browserScripting, startScripting } from '../../../../runtime-web/src/form/scripts.js'
import { FormStore } from '../../../../runtime-web/src/form/store.js'
import type { RuntimeServices } from '../../../../runtime-web/src/form/types.js'
import { useDevice } from '../../../../runtime-web/src/hooks/useDevice.js'
import '../../../../runtime-web/src/styles.css'

const registry = coreRegistry()
const renderers = createRendererRegistry()
const unavailable = () => Promise.reject(new Error('no server in the benchmark'))
const services: RuntimeServices = {
  lang: 'es',
  upload: unavailable,
  unlink: unavailable,
  fileUrl: (path) => path,
  fileSrc: (path) => Promise.resolve(path),
  peopleOptions: () => Promise.resolve([]),
  preview: () => undefined,
}

// The same i18n set-up as runtime-web/src/main.tsx, done (as there) before the form screen exists.
const i18n = await createI18n('es', { react: { useSuspense: false } })

// As FormsPage once the server's answer is in. The bench measures time to interactive from here too.
performance.mark('bench:model')
// Named once: `define` puts the whole form wherever the name is written.
const served = __BENCH_CONFIG__
await startScripting(served)
const store = new FormStore({
  config: withDefaults(served, registry),
  registry,
  mode: 'new',
  task: 'start',
  values: {},
  scripting: browserScripting,
  initial: __BENCH_INITIAL__,
})
void store.start()

function Screen() {
  const device = useDevice()
  const context = useMemo(() => ({ store, renderers, services, device }), [device])
  return (
    <FormRuntime
      context={context}
      vars={{}}
      docPath=""
      docPathLink=""
      decisions={[]}
      onDecision={async () => true}
      mayEditValues={false}
      saving={false}
      onSend={() => store.requestSubmit('send')}
      onSave={() => store.requestSubmit('save')}
      onToggleEdit={() => undefined}
    />
  )
}

createRoot(document.getElementById('root')!).render(
  <I18nextProvider i18n={i18n}>
    <Screen />
  </I18nextProvider>
)
