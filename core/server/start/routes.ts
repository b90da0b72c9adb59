/*
 * Routes. Spec calls live under /data and /inside (the call-contract middleware has already applied
 * the `case` field); platform routes under /api; everything else GET is the web app.
 */
import router from '@adonisjs/core/services/router'
import { platform } from '#services/platform'

const HealthController = () => import('#controllers/health_controller')
const InstitutionController = () => import('#controllers/institution_controller')
const PluginsController = () => import('#controllers/plugins_controller')
const WebController = () => import('#controllers/web_controller')

router.get('/health', [HealthController, 'show'])
router.get('/data/config/infocompany', [InstitutionController, 'info'])
router.get('/api/plugins', [PluginsController, 'index'])

await platform().plugins.routes(router)

router.get('*', [WebController, 'serve'])
