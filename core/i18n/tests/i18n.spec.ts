import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  createI18n,
  isLanguage,
  pickLanguage,
  resources,
  translate,
} from '../src/index.js'

/** Every key of a nested message tree as a dotted path, with its value. */
function flatten(tree: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of flatten(value, path)) out.set(inner, innerValue)
    } else {
      out.set(path, value)
    }
  }
  return out
}

const flat = Object.fromEntries(LANGUAGES.map((lang) => [lang, flatten(resources[lang].translation)])) as Record<
  (typeof LANGUAGES)[number],
  Map<string, unknown>
>

/** Message keys and texts named by the two specification documents (000 and 001). */
const SPEC_KEYS = [
  'tarea_realizada',
  'this_form_dont_have_external',
  'process_not_external',
  'consulta_incorrecta',
  'consulta_correcta',
  'scan_IDcard_error',
  'scan_IDcard_success',
  'login_correct',
  'email_sended_correct',
  'change_pass_correct',
  'estado_actualizado_exito',
  'doc_subido_success',
  'active_2fa_incorrect',
  'password_no_coincide',
  'info_invalida',
  'no_copy_or_cut',
  'no_rename',
  'no_search',
  'required',
  'missing_required_fields',
  'info_sent_success',
  'no_cameras',
  'no_session_storage',
  'invalid_date',
  'invalid_number',
  'variable_not_found',
  'state_init',
  'state_end',
  'public_link.invalid_password',
  'public_link.not_exists',
  'public_link.not_active_yet',
  'public_link.closed',
  'agent.path_not_exists',
  'agent.path_not_directory',
  'agent.folder_no_permissions',
  'agent.disconnected',
  'session.closed_inactivity',
  'chart.not_enough_data',
  'internal_server_error',
  'range.min_too_low',
  'range.limit_exceeded',
  'upload.only_extensions_allowed',
  'error.generic',
  'error.unauthorized',
  'error.not_found',
  'error.internal',
  'error.invalid_case',
  'error.case_mismatch',
  'error.malformed_body',
  'error.validation',
  'error.too_large',
  'health.database',
  'health.queue',
  'health.storage',
  'health.sockets',
  'health.ok',
  'health.down',
  'language.es',
  'language.en',
  'language.zh',
  'online.online',
  'online.offline',
]

/** Spanish texts the specification quotes word for word (scan_IDcard_error in "tú": one register, register.spec.ts). */
const SPEC_SPANISH: Record<string, string> = {
  scan_IDcard_error: 'Ocurrió un error al escanear la tarjeta o cédula, por favor vuelve a intentarlo',
  login_correct: 'Se ha logueado correctamente',
  doc_subido_success: 'Documento subido correctamente',
  missing_required_fields: 'No se han diligenciado lo siguientes campos obligatorios:',
  info_sent_success: 'Información enviada con exito',
  process_not_external: 'Este proceso no puede ser consultado externamente',
  no_cameras: 'No se detectaron cámaras',
  no_session_storage: 'Tu Browser no soporta sessionStorage!',
  invalid_date: 'Fecha inválida',
  invalid_number: 'Número inválido',
  state_init: 'Iniciado',
  state_end: 'Finalizado',
  'error.generic': 'Error',
  'error.unauthorized': 'Unauthorized',
}

/** Keys whose text is the same in every language on purpose (a product name, a protocol marker). */
const SAME_EVERYWHERE = new Set(['app.name', 'error.unauthorized'])

/**
 * Texts in files of their own, loaded with the code that shows them (the designer's have their own tests);
 * server: what only the server says, never sent to the browser.
 */
const AREAS = ['viewers', 'table', 'actions', 'idcard', 'form_done', 'decision', 'consultation', 'server'] as const

async function areaTexts(area: string, lang: string): Promise<Map<string, unknown>> {
  const text = await readFile(new URL(`../locales/${area}/${lang}.json`, import.meta.url), 'utf8')
  return flatten(JSON.parse(text) as object)
}

test.group('i18n resources', () => {
  test('{$self}: the three languages have the same keys, none empty, with the same placeholders')
    .with([...AREAS])
    .run(async ({ assert }, area) => {
      const [es, en, zh] = await Promise.all(LANGUAGES.map((lang) => areaTexts(area, lang)))
      const placeholders = (text: unknown) => [...String(text).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort()
      assert.isAbove(es!.size, 0)
      for (const other of [en!, zh!]) {
        assert.deepEqual([...other.keys()].sort(), [...es!.keys()].sort())
        for (const [key, value] of other) {
          assert.isAbove(String(value).trim().length, 0, key)
          assert.deepEqual(placeholders(value), placeholders(es!.get(key)), key)
        }
      }
    })

  test("the server's texts are namespaces of their own, apart from the pages' (merging overrides nothing)", async ({
    assert,
  }) => {
    for (const lang of LANGUAGES) {
      const page = JSON.parse(await readFile(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8')) as object
      const server = JSON.parse(
        await readFile(new URL(`../locales/server/${lang}.json`, import.meta.url), 'utf8')
      ) as object
      assert.deepEqual(
        Object.keys(server).filter((key) => key in page),
        [],
        lang
      )
    }
  })

  test('Spanish is the default, then English and Chinese', ({ assert }) => {
    assert.deepEqual([...LANGUAGES], ['es', 'en', 'zh'])
    assert.equal(DEFAULT_LANGUAGE, 'es')
  })

  test('the three locales have exactly the same keys', ({ assert }) => {
    const es = [...flat.es.keys()].sort()
    assert.isAbove(es.length, 100)
    assert.deepEqual([...flat.en.keys()].sort(), es)
    assert.deepEqual([...flat.zh.keys()].sort(), es)
  })

  test('every value is a non-empty string', ({ assert }) => {
    for (const lang of LANGUAGES) {
      for (const [key, value] of flat[lang]) {
        assert.isString(value, `${lang}:${key}`)
        assert.isAbove(String(value).trim().length, 0, `${lang}:${key}`)
      }
    }
  })

  test('interpolation placeholders are the same in every language', ({ assert }) => {
    const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()
    for (const [key, value] of flat.es) {
      assert.deepEqual(placeholders(flat.en.get(key)), placeholders(value), `en:${key}`)
      assert.deepEqual(placeholders(flat.zh.get(key)), placeholders(value), `zh:${key}`)
    }
  })

  test('every message named by the specification exists', ({ assert }) => {
    for (const key of SPEC_KEYS) {
      assert.isTrue(flat.es.has(key), key)
    }
    for (const [key, text] of Object.entries(SPEC_SPANISH)) {
      assert.equal(flat.es.get(key), text, key)
    }
    const english = [...flat.en.values()]
    for (const text of [
      'Invalid password',
      'This document does not exist',
      'The path sent does not exist in the agent',
      'The minimum number of the range is too low',
      'Exceeded the allowable limit of the range',
      'This form does not have an external view',
    ]) {
      assert.include(english, text)
    }
  })

  test('English and Chinese are translations, not copies of Spanish', ({ assert }) => {
    const sample = [
      'tarea_realizada',
      'scan_IDcard_error',
      'login_correct',
      'info_sent_success',
      'missing_required_fields',
      'no_cameras',
      'invalid_date',
      'state_init',
      'page.status.title',
      'health.database',
      'error.invalid_case',
      'public_link.not_exists',
    ]
    for (const key of sample) {
      assert.notEqual(flat.en.get(key), flat.es.get(key), `en:${key}`)
      assert.notEqual(flat.zh.get(key), flat.es.get(key), `zh:${key}`)
      assert.notEqual(flat.zh.get(key), flat.en.get(key), `zh/en:${key}`)
      assert.match(String(flat.zh.get(key)), /[\u4e00-\u9fff]/, `zh:${key}`)
    }
    let copies = 0
    for (const [key, value] of flat.es) {
      if (!SAME_EVERYWHERE.has(key) && flat.zh.get(key) === value) copies++
    }
    assert.equal(copies, 0)
  })
})

test.group('pickLanguage', () => {
  test('single codes and regional variants', ({ assert }) => {
    assert.equal(pickLanguage('en'), 'en')
    assert.equal(pickLanguage('en-US'), 'en')
    assert.equal(pickLanguage('EN-gb'), 'en')
    assert.equal(pickLanguage('zh-CN'), 'zh')
    assert.equal(pickLanguage('zh_Hant_TW'), 'zh')
    assert.equal(pickLanguage('es-CO'), 'es')
  })

  test('Accept-Language headers are ranked by weight', ({ assert }) => {
    assert.equal(pickLanguage('fr-FR,fr;q=0.9,en;q=0.8,es;q=0.7'), 'en')
    assert.equal(pickLanguage('de;q=0.9, zh-CN;q=0.5, en;q=0.4'), 'zh')
    assert.equal(pickLanguage('en;q=0.3, zh;q=0.8'), 'zh')
    assert.equal(pickLanguage('en;q=0, zh;q=0.1'), 'zh')
    assert.equal(pickLanguage('en, zh'), 'en')
  })

  test('unknown, empty and wildcard inputs fall back to Spanish', ({ assert }) => {
    assert.equal(pickLanguage(), 'es')
    assert.equal(pickLanguage(''), 'es')
    assert.equal(pickLanguage(null), 'es')
    assert.equal(pickLanguage('*'), 'es')
    assert.equal(pickLanguage('fr-FR,de;q=0.5'), 'es')
    assert.equal(pickLanguage('en;q=0'), 'es')
    assert.equal(pickLanguage(';;,,'), 'es')
  })

  test('isLanguage accepts only the three codes', ({ assert }) => {
    assert.isTrue(isLanguage('zh'))
    assert.isFalse(isLanguage('fr'))
    assert.isFalse(isLanguage(undefined))
  })
})

test.group('translate and createI18n', () => {
  test('translate gives each language its text, with interpolation', ({ assert }) => {
    assert.equal(translate('es', 'login_correct'), 'Se ha logueado correctamente')
    assert.equal(translate('en', 'login_correct'), 'You have signed in successfully')
    assert.equal(translate('zh', 'login_correct'), '登录成功')
    assert.equal(
      translate('en', 'error.invalid_case', { value: 'PATCH' }),
      'The case field must be GET, POST, PUT or DELETE (received “PATCH”)'
    )
    assert.include(translate('es', 'error.invalid_case', { value: 'PATCH' }), '«PATCH»')
    assert.equal(translate('es', 'variable_not_found', { name: 'total' }), 'No se encontró la variable total')
  })

  test('values are not HTML-escaped', ({ assert }) => {
    assert.equal(translate('en', 'variable_not_found', { name: '<a&b>' }), 'The variable <a&b> was not found')
  })

  test('unknown languages fall back to Spanish, unknown keys give the key', ({ assert }) => {
    assert.equal(translate('fr', 'required'), 'Obligatorio')
    assert.equal(translate('en-US', 'required'), 'Required')
    assert.equal(translate('es', 'no.such.key'), 'no.such.key')
  })

  test('createI18n returns a new, initialised instance each time', async ({ assert }) => {
    const a = await createI18n('zh')
    const b = await createI18n()
    assert.notStrictEqual(a, b)
    assert.isTrue(a.isInitialized)
    assert.equal(a.language, 'zh')
    assert.equal(b.language, 'es')
    assert.equal(a.t('state_end'), '已完成')
    await a.changeLanguage('en')
    assert.equal(a.t('state_end'), 'Finished')
    assert.equal(b.t('state_end'), 'Finalizado')
    assert.equal(translate('zh', 'state_end'), '已完成')
  })
})
