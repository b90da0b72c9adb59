/*
 * Routes. Spec calls live under /data and /inside (the call-contract middleware has already applied
 * the `case` field); platform routes under /api; everything else GET is the web app.
 */
import router from '@adonisjs/core/services/router'
import { platform } from '#services/platform'
import { middleware } from '#start/kernel'
import { ADMIN_ROLES, DESIGNER_ROLES } from '#services/auth/principal'

const HealthController = () => import('#controllers/health_controller')
const InstitutionController = () => import('#controllers/institution_controller')
const PluginsController = () => import('#controllers/plugins_controller')
const WebController = () => import('#controllers/web_controller')
const AuthController = () => import('#controllers/auth_controller')
const UsersController = () => import('#controllers/users_controller')
const AreasRolesController = () => import('#controllers/areas_roles_controller')
const FormProcessController = () => import('#controllers/form_process_controller')
const ConsultationController = () => import('#controllers/consultation_controller')
const InboxController = () => import('#controllers/inbox_controller')
const LookupsController = () => import('#controllers/lookups_controller')
const DesignerController = () => import('#controllers/designer_controller')

router.get('/health', [HealthController, 'show'])
router.get('/data/config/infocompany', [InstitutionController, 'info'])
router.get('/api/plugins', [PluginsController, 'index'])
// The API's description (app/services/openapi): public, see openapi_controller.ts.
router.get('/openapi.json', [() => import('#controllers/openapi_controller'), 'show'])

// Sign-in (spec 000 §7); each path is rate-limited per client address inside the controller.
router.get('/data/captcha', [AuthController, 'captcha'])
router.post('/inside/users/validate/ldap', [AuthController, 'validateLdap'])
router.put('/data/login', [AuthController, 'login'])
router.put('/data/users/validate/two_fa', [AuthController, 'validateTwoFa'])
router.put('/data/forgetPassword/:user', [AuthController, 'forgetPassword'])
router.get('/data/changePassword/:token', [AuthController, 'checkResetToken'])
router.put('/data/changePassword/:token', [AuthController, 'changePassword'])

// The form runtime (spec 000 §7): signed-in callers, or an external assignee with the task's link.
router.post('/data/form/info/user/token', [FormProcessController, 'info'])
router.post('/data/form/flows/process', [FormProcessController, 'saveNew'])
router.post('/data/form/asignar/process/info', [FormProcessController, 'saveEnter'])
router.post('/data/form/decision/process/info', [FormProcessController, 'saveDecision'])
router.post('/data/form/flows/process/edit', [FormProcessController, 'saveEdit'])

// Form files: staged on upload, the case's once a save commits; read by whoever may see the case.
const UploadsController = () => import('#controllers/uploads_controller')
router.post('/data/form/upload/files', [UploadsController, 'upload'])
router.post('/data/form/upload/files/unlink', [UploadsController, 'unlink'])
router.get('/data/files/:name', [UploadsController, 'show']).where('name', /^[0-9a-f-]{36}\.[a-z0-9]{1,10}$/)

// Generated files (create_doc, Word to PDF, the ID card; spec 000 §4, §7; 001 §7): the uploads route's form context.
const GeneratedFilesController = () => import('#controllers/generated_files_controller')
router.post('/inside/forms/create/search_endpoint/create_doc', [GeneratedFilesController, 'createDoc'])
router.post('/inside/forms/create/search_endpoint/dev_word_to_pdf', [GeneratedFilesController, 'wordToPdf'])
router.post('/inside/forms/create/search_endpoint/cardim_preview', [GeneratedFilesController, 'cardimPreview'])
router.post('/inside/forms/create/search_endpoint/cardim_full', [GeneratedFilesController, 'cardimFull'])

// Public consultation of a case by its code (spec 000 §2), rate-limited per address and per code.
router.post('/inside/forms/info_basicform', [ConsultationController, 'basicForm'])
router.post('/inside/forms/validation_flow', [ConsultationController, 'validateFlow'])
router.post('/data/forms/record_info', [ConsultationController, 'recordInfo'])
router.post('/inside/forms/info_formxflow', [ConsultationController, 'formByFlow'])

// Signed-in callers.
router
  .group(() => {
    router.get('/data/areas', [UsersController, 'areas'])
    router.get('/data/users/roles', [UsersController, 'roles'])
    router.get('/data/allusers', [UsersController, 'allUsers'])
    router.get('/inside/session', [AuthController, 'session'])
    router.put('/inside/session', [AuthController, 'keepAlive'])
    router.delete('/inside/session', [AuthController, 'logout'])
    router.delete('/inside/session/impersonation', [UsersController, 'stopImpersonating'])
    router.put('/inside/users/password', [AuthController, 'changeOwnPassword'])
    router.get('/inside/users/me/api_tokens', [UsersController, 'apiTokens'])
    router.post('/inside/users/me/api_tokens', [UsersController, 'createApiToken'])
    router.delete('/inside/users/me/api_tokens/:id', [UsersController, 'deleteApiToken'])
    router.get('/inside/navigation', [PluginsController, 'navigation'])
  })
  .use(middleware.auth())

// The signed-in user's work list (pending steps, started cases, processes to start) and lookups.
router
  .group(() => {
    router.get('/inside/inbox/summary', [InboxController, 'summary'])
    router.get('/inside/inbox/pending', [InboxController, 'pending'])
    router.get('/inside/inbox/started', [InboxController, 'started'])
    router.get('/inside/inbox/startable', [InboxController, 'startable'])
    router.get('/inside/inbox/filters', [InboxController, 'filterValues'])
    router.put('/inside/inbox/claim', [InboxController, 'claim'])
    router.put('/inside/inbox/release', [InboxController, 'release'])
    router.post('/inside/data_bases/returncolumnsdata', [LookupsController, 'returnColumnsData'])
    router.post('/inside/forms/links_modules', [LookupsController, 'linksModules'])
  })
  .use(middleware.auth())

// User administration (spec 001 §2): superusers and supervisors.
router
  .group(() => {
    router.get('/inside/users', [UsersController, 'index'])
    router.get('/inside/users/tree', [UsersController, 'tree'])
    router.post('/inside/users', [UsersController, 'store'])
    router.get('/inside/users/:id', [UsersController, 'show']).where('id', /^\d+$/)
    router.put('/inside/users/:id', [UsersController, 'update']).where('id', /^\d+$/)
    router.put('/inside/users/:id/block', [UsersController, 'block'])
    router.put('/inside/users/:id/password', [UsersController, 'setPassword'])
    router.put('/inside/users/:id/api', [UsersController, 'setApi'])
    router.put('/inside/users/:id/two_fa/reset', [UsersController, 'resetTwoFa'])
    router.put('/inside/users/:id/sessions/close', [UsersController, 'closeSessions'])
    router.post('/inside/users/:id/impersonate', [UsersController, 'impersonate'])
    router.post('/inside/areas', [AreasRolesController, 'storeArea'])
    router.put('/inside/areas/:id', [AreasRolesController, 'updateArea'])
    router.delete('/inside/areas/:id', [AreasRolesController, 'destroyArea'])
    router.post('/inside/roles', [AreasRolesController, 'storeRole'])
    router.put('/inside/roles/:id', [AreasRolesController, 'updateRole'])
    router.delete('/inside/roles/:id', [AreasRolesController, 'destroyRole'])
  })
  .use(middleware.auth({ roles: [...ADMIN_ROLES] }))

// The enabled plugins' settings (plugin-api settings.ts), read and changed by administrators.
const PluginSettingsController = () => import('#controllers/plugin_settings_controller')
router
  .group(() => {
    router.get('/inside/plugin_settings', [PluginSettingsController, 'index'])
    router
      .put('/inside/plugin_settings/:plugin', [PluginSettingsController, 'update'])
      .where('plugin', /^[a-z][a-z0-9-]{1,39}$/)
  })
  .use(middleware.auth({ roles: [...ADMIN_ROLES] }))

// The form designer: forms, drafts, publication, versions and templates (DESIGNER_ROLES).
router
  .group(() => {
    router.get('/inside/designer/forms', [DesignerController, 'index'])
    router.post('/inside/designer/forms', [DesignerController, 'store'])
    router.get('/inside/designer/forms/:id', [DesignerController, 'show'])
    router.put('/inside/designer/forms/:id/draft', [DesignerController, 'saveDraft'])
    router.post('/inside/designer/forms/:id/publish', [DesignerController, 'publish'])
    router.get('/inside/designer/forms/:id/versions/:version', [DesignerController, 'version'])
    router.get('/inside/designer/templates', [DesignerController, 'templates'])
  })
  .use(middleware.auth({ roles: [...DESIGNER_ROLES] }))

// Institution settings: superusers.
router
  .put('/inside/config/institution', [InstitutionController, 'update'])
  .use(middleware.auth({ roles: ['superuser'] }))

// The execute_script action's server side: superusers and supervisors, rate-limited (script_calls_controller.ts).
const ScriptCallsController = () => import('#controllers/script_calls_controller')
router
  .post('/inside/forms/create/search_endpoint/ejecutar_exe', [ScriptCallsController, 'execute'])
  .use(middleware.auth())

// The push_notify action's socket half: the case's other people are told on /ws (push_notify_controller.ts).
const PushNotifyController = () => import('#controllers/push_notify_controller')
router.post('/inside/forms/create/search_endpoint/push_notify', [PushNotifyController, 'push']).use(middleware.auth())

await platform().plugins.routes(router)

router.get('*', [WebController, 'serve'])
