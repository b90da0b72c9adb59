import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { isContractPath } from '#lib/call_contract'
import { platform } from '#services/platform'
import { caseKey, taskToken } from '#services/process/engine'
import { recordStaged } from '#services/uploads/staging'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]
type Role = 'superuser' | 'supervisor' | 'teacher' | 'student'
const ROLES: readonly Role[] = ['superuser', 'supervisor', 'teacher', 'student']

/** Real identifiers, so a route guarded by its controller refuses for who is calling, not for what is missing. */
interface Fixture {
  formKey: string
  /** A case whose pending task is the area's `fill` step. */
  fillCase: string
  fillTask: string
  /** A case whose pending task is the supervisors' `approve` step. */
  approveCase: string
  approveTask: string
  /** A staged upload of the student's. */
  fileName: string
}

interface Probe {
  /** Values of the pattern's `:params`. */
  params?: Record<string, string>
  fields?: Record<string, string>
}

type Policy =
  | { public: true }
  | {
      /** Who may call it: roles, or any signed-in user (finer rules of such routes have their own tests). */
      allow: 'signed-in' | readonly Role[]
      /** The message a signed-in caller outside `allow` gets (auth.forbidden unless the route says otherwise). */
      refusal?: string
      probe?: (f: Fixture) => Probe
    }

const PUBLIC = { public: true } as const
const SIGNED_IN = { allow: 'signed-in' } as const
const ADMINS = { allow: ['superuser', 'supervisor'] } as const
const DESIGNERS = { allow: ['superuser', 'supervisor'] } as const
const SUPERUSERS = { allow: ['superuser'] } as const

/**
 * Every route's policy, by `METHOD pattern`. A route missing here fails the suite: a new route
 * needs a line saying who may call it, and the tests below check that the server agrees.
 */
const POLICIES: Record<string, Policy> = {
  'GET /health': PUBLIC,
  'GET /data/config/infocompany': PUBLIC,
  'GET /api/plugins': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /*': PUBLIC,
  // Sign-in and recovery.
  'GET /data/captcha': PUBLIC,
  'POST /inside/users/validate/ldap': PUBLIC,
  'PUT /data/login': PUBLIC,
  'PUT /data/users/validate/two_fa': PUBLIC,
  'PUT /data/forgetPassword/:user': PUBLIC,
  'GET /data/changePassword/:token': PUBLIC,
  'PUT /data/changePassword/:token': PUBLIC,
  // The public consultation of a case by its code.
  'POST /inside/forms/info_basicform': PUBLIC,
  'POST /inside/forms/validation_flow': PUBLIC,
  'POST /data/forms/record_info': PUBLIC,
  'POST /inside/forms/info_formxflow': PUBLIC,
  // The form runtime: signed-in callers (or an external assignee's task link), checked by the controller.
  'POST /data/form/info/user/token': { ...SIGNED_IN, probe: (f) => ({ fields: { type: 'new', data: f.formKey } }) },
  'POST /data/form/flows/process': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { data: f.formKey, flow_values: '{}' } }),
  },
  'POST /data/form/asignar/process/info': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { key_process: f.fillCase, token: f.fillTask, flow_values: '{}' } }),
  },
  'POST /data/form/decision/process/info': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { key_process: f.approveCase, token: f.approveTask, decision: 'aprobar' } }),
  },
  'POST /data/form/flows/process/edit': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { key_process: f.fillCase, flow_values: '{}' } }),
  },
  'POST /data/form/upload/files': { ...SIGNED_IN, probe: (f) => ({ fields: { data: f.formKey } }) },
  'POST /data/form/upload/files/unlink': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { path: `/data/files/${f.fileName}` } }),
  },
  'GET /data/files/:name': { ...SIGNED_IN, probe: (f) => ({ params: { name: f.fileName } }) },
  'POST /inside/forms/create/search_endpoint/create_doc': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { data: f.formKey, template: 'x' } }),
  },
  'POST /inside/forms/create/search_endpoint/dev_word_to_pdf': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { pathdoc: `/data/files/${f.fileName}` } }),
  },
  'POST /inside/forms/create/search_endpoint/cardim_preview': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { data: f.formKey } }),
  },
  'POST /inside/forms/create/search_endpoint/cardim_full': {
    ...SIGNED_IN,
    probe: (f) => ({ fields: { data: f.formKey } }),
  },
  'POST /inside/forms/create/search_endpoint/push_notify': SIGNED_IN,
  'POST /inside/forms/create/search_endpoint/ejecutar_exe': { ...ADMINS, refusal: 'script_call.forbidden' },
  // Any signed-in user: selectors, the session, their own password and API tokens, the home.
  'GET /data/areas': SIGNED_IN,
  'GET /data/users/roles': SIGNED_IN,
  'GET /data/allusers': SIGNED_IN,
  'GET /inside/session': SIGNED_IN,
  'PUT /inside/session': SIGNED_IN,
  'DELETE /inside/session': SIGNED_IN,
  'DELETE /inside/session/impersonation': SIGNED_IN,
  'PUT /inside/users/password': SIGNED_IN,
  'GET /inside/users/me/api_tokens': SIGNED_IN,
  'POST /inside/users/me/api_tokens': SIGNED_IN,
  'DELETE /inside/users/me/api_tokens/:id': SIGNED_IN,
  'GET /inside/navigation': SIGNED_IN,
  // The work list and lookups.
  'GET /inside/inbox/summary': SIGNED_IN,
  'GET /inside/inbox/pending': SIGNED_IN,
  'GET /inside/inbox/started': SIGNED_IN,
  'GET /inside/inbox/startable': SIGNED_IN,
  'GET /inside/inbox/filters': SIGNED_IN,
  'PUT /inside/inbox/claim': SIGNED_IN,
  'PUT /inside/inbox/release': SIGNED_IN,
  'POST /inside/data_bases/returncolumnsdata': SIGNED_IN,
  'POST /inside/forms/links_modules': SIGNED_IN,
  // User administration.
  'GET /inside/users': ADMINS,
  'GET /inside/users/tree': ADMINS,
  'POST /inside/users': ADMINS,
  'GET /inside/users/:id': ADMINS,
  'PUT /inside/users/:id': ADMINS,
  'PUT /inside/users/:id/block': ADMINS,
  'PUT /inside/users/:id/password': ADMINS,
  'PUT /inside/users/:id/api': ADMINS,
  'PUT /inside/users/:id/two_fa/reset': ADMINS,
  'PUT /inside/users/:id/sessions/close': ADMINS,
  'POST /inside/users/:id/impersonate': ADMINS,
  'POST /inside/areas': ADMINS,
  'PUT /inside/areas/:id': ADMINS,
  'DELETE /inside/areas/:id': ADMINS,
  'POST /inside/roles': ADMINS,
  'PUT /inside/roles/:id': ADMINS,
  'DELETE /inside/roles/:id': ADMINS,
  // The enabled plugins' settings.
  'GET /inside/plugin_settings': ADMINS,
  'PUT /inside/plugin_settings/:plugin': { ...ADMINS, probe: () => ({ params: { plugin: 'testkit' } }) },
  // The form designer.
  'GET /inside/designer/forms': DESIGNERS,
  'POST /inside/designer/forms': DESIGNERS,
  'GET /inside/designer/forms/:id': DESIGNERS,
  'PUT /inside/designer/forms/:id/draft': DESIGNERS,
  'POST /inside/designer/forms/:id/publish': DESIGNERS,
  'GET /inside/designer/forms/:id/versions/:version': DESIGNERS,
  'GET /inside/designer/templates': DESIGNERS,
  // Institution settings.
  'PUT /inside/config/institution': SUPERUSERS,
  // Documents sharing (plugins/documents/server/sharing): the owner's rules are the routes' own tests.
  'GET /api/documents/shares': SIGNED_IN,
  'POST /api/documents/shares': SIGNED_IN,
  'POST /api/documents/shares/email': SIGNED_IN,
  'PUT /api/documents/shares/:id': SIGNED_IN,
  'DELETE /api/documents/shares/:id': SIGNED_IN,
  'GET /api/documents/links': SIGNED_IN,
  'POST /api/documents/links': SIGNED_IN,
  'DELETE /api/documents/links/:id': SIGNED_IN,
  'GET /api/documents/links/:id/accesses': SIGNED_IN,
  // Documents library (plugins/documents/server/library): who may reach each item is the routes' own tests.
  'GET /api/documents/library/:view': SIGNED_IN,
  'POST /api/documents/folders': SIGNED_IN,
  'POST /api/documents/files': SIGNED_IN,
  'GET /api/documents/files/:id': SIGNED_IN,
  'GET /api/documents/files/:id/content': SIGNED_IN,
  'GET /api/documents/files/:id/versions': SIGNED_IN,
  'POST /api/documents/files/:id/versions/:number/restore': SIGNED_IN,
  'PUT /api/documents/files/:id/labels': SIGNED_IN,
  'GET /api/documents/files/:id/comments': SIGNED_IN,
  'POST /api/documents/files/:id/comments': SIGNED_IN,
  'POST /api/documents/trash': SIGNED_IN,
  'POST /api/documents/trash/restore': SIGNED_IN,
  'POST /api/documents/trash/empty': SIGNED_IN,
  'GET /api/documents/labels': SIGNED_IN,
  'POST /api/documents/labels': SIGNED_IN,
  'PUT /api/documents/labels/:id': SIGNED_IN,
  'DELETE /api/documents/labels/:id': SIGNED_IN,
  'GET /api/documents/usage': SIGNED_IN,
  // A public link's screen: its token (or the grant it hands out) is the key.
  'POST /data/documents/verify/document/public': PUBLIC,
  'GET /getPublicFile/:token': PUBLIC,
  'GET /api/documents/public/:grant': PUBLIC,
}

/**
 * Plugin routes (`ctx.http.route`) carry their policy in their declaration: it is read from there, so a
 * plugin's route needs no line here, and the tests below check that the server enforces what it says.
 * Only the routes of plugins that booted are mounted.
 */
function pluginPolicies(): Record<string, Policy> {
  const services = platform().pluginServices
  const live = new Set(
    platform()
      .plugins.status()
      .filter((s) => s.enabled)
      .map((s) => s.id)
  )
  const out: Record<string, Policy> = {}
  for (const { pluginId, path, route } of services?.routes.all() ?? []) {
    if (!live.has(pluginId)) continue
    const auth = route.auth
    out[`${route.method} ${path}`] =
      auth === 'public'
        ? PUBLIC
        : auth === 'signed-in'
          ? SIGNED_IN
          : { allow: ROLES.filter((r) => r === 'superuser' || auth.roles.includes(r)) }
  }
  return out
}

const ALL_POLICIES: Record<string, Policy> = { ...POLICIES, ...pluginPolicies() }

interface Route {
  method: string
  pattern: string
  key: string
}

/** The routes the router holds once the app has booted (HEAD rides along with GET). */
function registeredRoutes(): Route[] {
  return Object.values(router.toJSON())
    .flat()
    .flatMap((route) =>
      route.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, pattern: route.pattern, key: `${method} ${route.pattern}` }))
    )
}

/** A concrete URL for the pattern: the probe's params, `1` for any other. */
function urlOf(pattern: string, params: Record<string, string> = {}): string {
  if (pattern === '/*') return '/una/pagina'
  return pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '1')
}

/**
 * Calls a route as the spec's client does: the method named in `case` too. With `tunnel`, a POST
 * carrying the method in `case` (the dispatcher's way), which must meet the same policy.
 */
function call(client: Client, route: Route, probe: Probe, token: string | null, tunnel = false) {
  const url = urlOf(route.pattern, probe.params)
  const fields = { case: route.method, ...probe.fields }
  const method = tunnel ? 'POST' : route.method
  let request = client.request(url, method as 'GET')
  if (token) request = request.header('token', token)
  return method === 'GET' ? request.qs(fields) : request.form(fields)
}

/** Direct, and tunnelled through POST where the call contract applies (/data, /inside, /getPublicFile). */
function tunnels(route: Route): boolean[] {
  return route.method === 'POST' || !isContractPath(route.pattern) ? [false] : [false, true]
}

const UNAUTHORIZED = { status: 'fail', message: translate('es', 'error.unauthorized') }

test.group('route policy: every route says who may call it, and the server agrees', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  /** One signed-in user per role, and a permit case at each kind of step. */
  async function setUp(client: Client) {
    const form = await publishPermit()
    const tokens = {} as Record<Role, string>
    for (const role of ROLES) {
      const user = await makeUser({ username: `rol_${role}`, role })
      if (role === 'teacher') await user.related('areas').attach([form.area.id])
      tokens[role] = await tokenFor(client, `rol_${role}`)
    }
    const start = async () => {
      const started = await client
        .post('/data/form/flows/process')
        .header('token', tokens.student)
        .form({ case: 'POST', data: form.key, flow_values: JSON.stringify({ nombre: 'Ana', dias: 2 }) })
      started.assertStatus(200)
      const id = started.body().data.id as number
      const task = await db.from('tasks').where('case_id', id).where('status', 'pending').firstOrFail()
      return { id, key: caseKey(id), task: taskToken(task.id) }
    }
    const fill = await start()
    const approve = await start()
    const reviewed = await client
      .post('/data/form/asignar/process/info')
      .header('token', tokens.teacher)
      .form({
        case: 'POST',
        key_process: approve.key,
        token: approve.task,
        flow_values: JSON.stringify({ nombre: 'Ana', dias: 2, observacion: 'Visto' }),
      })
    reviewed.assertStatus(200)
    const approveTask = await db.from('tasks').where('case_id', approve.id).where('status', 'pending').firstOrFail()
    const student = await db.from('users').where('username', 'rol_student').firstOrFail()
    const fileName = `${randomUUID()}.pdf`
    await recordStaged([
      {
        path: `/data/files/${fileName}`,
        storage_key: `files/${fileName}`,
        real_name: 'soporte.pdf',
        ext: 'pdf',
        mime: 'application/pdf',
        size: 10,
        ip: '127.0.0.1',
        owner_user_id: student.id,
        owner_task_id: null,
        form_id: form.formId,
        field: 'motivo',
        foldertype: 'files',
      },
    ])
    const fixture: Fixture = {
      formKey: form.key,
      fillCase: fill.key,
      fillTask: fill.task,
      approveCase: approve.key,
      approveTask: taskToken(approveTask.id),
      fileName,
    }
    return { tokens, fixture }
  }

  test('every route of the router has a policy, and every policy a route', ({ assert }) => {
    const keys = registeredRoutes().map((r) => r.key)
    assert.isAbove(keys.length, 50)
    assert.deepEqual(
      keys.filter((key) => !(key in ALL_POLICIES)),
      [],
      'routes without a policy in route_policy.spec.ts'
    )
    assert.deepEqual(
      Object.keys(ALL_POLICIES).filter((key) => !keys.includes(key)),
      [],
      'policies of routes that no longer exist'
    )
  })

  test('anonymous callers get 401 Unauthorized on every protected route, tunnelled or not', async ({
    client,
    assert,
  }) => {
    const { fixture } = await setUp(client)
    const before = await counts()
    for (const route of registeredRoutes()) {
      const policy = ALL_POLICIES[route.key]
      if (!policy || 'public' in policy) continue
      const probe = policy.probe?.(fixture) ?? {}
      for (const tunnel of tunnels(route)) {
        const response = await call(client, route, probe, null, tunnel)
        assert.equal(response.status(), 401, `${route.key}${tunnel ? ' (tunnelled)' : ''}: ${response.text()}`)
        assert.deepEqual(response.body(), UNAUTHORIZED, route.key)
      }
    }
    assert.deepEqual(await counts(), before)
  })

  test('a signed-in caller outside the allowed roles gets 403, the student included', async ({ client, assert }) => {
    const { tokens, fixture } = await setUp(client)
    const before = await counts()
    let refusals = 0
    for (const route of registeredRoutes()) {
      const policy = ALL_POLICIES[route.key]
      if (!policy || 'public' in policy || policy.allow === 'signed-in') continue
      const allowed = policy.allow
      const probe = policy.probe?.(fixture) ?? {}
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        for (const tunnel of tunnels(route)) {
          const response = await call(client, route, probe, tokens[role], tunnel)
          const label = `${route.key} as ${role}${tunnel ? ' (tunnelled)' : ''}: ${response.text()}`
          assert.equal(response.status(), 403, label)
          assert.deepEqual(
            response.body(),
            { status: 'fail', message: translate('es', policy.refusal ?? 'auth.forbidden') },
            label
          )
          refusals++
        }
      }
    }
    assert.isAbove(refusals, 40)
    assert.deepEqual(await counts(), before)
  })

  test('public routes answer anonymous callers without asking for a session', async ({ client, assert }) => {
    for (const route of registeredRoutes()) {
      if (!('public' in (ALL_POLICIES[route.key] ?? {}))) continue
      const response = await call(client, route, {}, null)
      // 503 is the web app's "not built" answer; anything else a public route says is its own business.
      assert.notInclude([401, 403, 500], response.status(), `${route.key}: ${response.text()}`)
    }
  })
})

/**
 * Row counts of the tables a wrongly allowed call would write to. The assignee mails' activities
 * are left out: the mail job logs them whenever it runs, which is no call's doing.
 */
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of [
    'users',
    'user_roles',
    'areas',
    'roles',
    'api_tokens',
    'forms',
    'form_versions',
    'cases',
    'tasks',
    'activities',
    'uploads',
  ]) {
    const query = db.from(table).count('* as n')
    if (table === 'activities') query.whereNot('type', 'email')
    const row = await query.first()
    out[table] = Number(row?.n ?? 0)
  }
  return out
}
