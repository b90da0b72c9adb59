import { test } from '@japa/runner'
import {
  bytesShown,
  bytesText,
  checkSettingsPatch,
  declarationProblems,
  definePlugin,
  settingsDefaults,
  settingsValues,
  type PluginServices,
  type SettingsDeclaration,
} from '@tramita/plugin-api'
import { PluginHost } from '#plugins/host'

const DECLARATION = {
  days: { type: 'integer', default: 30, min: 1, max: 3650, unit: 'days' },
  quota: { type: 'integer', default: 0, min: 0, unit: 'bytes' },
  loose: { type: 'integer', default: -5 },
  on: { type: 'boolean', default: false },
  banner: { type: 'string', default: '', maxLength: 5 },
  period: { type: 'enum', default: 'daily', options: ['daily', 'weekly'] },
} as const satisfies SettingsDeclaration

test.group('plugin settings: the declaration and its checks', () => {
  test('a patch of right values passes; each wrong one is named with its reason', ({ assert }) => {
    assert.deepEqual(checkSettingsPatch(DECLARATION, {}), { ok: true })
    assert.deepEqual(
      checkSettingsPatch(DECLARATION, { days: 1, quota: 0, loose: -99, on: true, banner: 'ñandú', period: 'weekly' }),
      { ok: true }
    )
    assert.deepEqual(checkSettingsPatch(DECLARATION, { days: 3650 }), { ok: true })
    const refused = checkSettingsPatch(DECLARATION, {
      days: 0,
      quota: -1,
      loose: 1.5,
      on: 'yes',
      banner: 'seis c',
      period: 'monthly',
      bogus: 1,
    })
    assert.deepEqual(refused, {
      ok: false,
      problems: [
        { key: 'days', reason: 'range', min: 1, max: 3650 },
        { key: 'quota', reason: 'range', min: 0, max: undefined },
        { key: 'loose', reason: 'type', expected: 'integer' },
        { key: 'on', reason: 'type', expected: 'boolean' },
        { key: 'banner', reason: 'length', max: 5 },
        { key: 'period', reason: 'option', options: ['daily', 'weekly'] },
        { key: 'bogus', reason: 'unknown' },
      ],
    })
  })

  test('types are strict: a number as text, NaN, a huge number or a list are not integers', ({ assert }) => {
    for (const value of ['10', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, [10], null, true]) {
      const result = checkSettingsPatch(DECLARATION, { loose: value })
      assert.isFalse(result.ok, String(value))
    }
    // Inherited names are not settings.
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const patch = JSON.parse(`{"${key}": 1}`) as Record<string, unknown>
      assert.deepEqual(checkSettingsPatch(DECLARATION, patch), { ok: false, problems: [{ key, reason: 'unknown' }] })
    }
  })

  test('values: saved over defaults, a saved value that no longer fits gives the default', ({ assert }) => {
    const defaults = settingsDefaults(DECLARATION)
    assert.deepEqual(defaults, { days: 30, quota: 0, loose: -5, on: false, banner: '', period: 'daily' })
    assert.deepEqual(settingsValues(DECLARATION, {}), defaults)
    assert.deepEqual(settingsValues(DECLARATION, { days: 7, on: true, gone: 1 }), { ...defaults, days: 7, on: true })
    assert.deepEqual(settingsValues(DECLARATION, { days: 9999, period: 'yearly', banner: 42 }), defaults)
  })

  test('a bad declaration is refused by definePlugin, with the setting named', ({ assert }) => {
    assert.deepEqual(declarationProblems(DECLARATION), [])
    const cases: [unknown, RegExp][] = [
      [{ Days: { type: 'integer', default: 1 } }, /setting "Days": use a camelCase name/],
      [{ days: { type: 'float', default: 1 } }, /type must be integer, boolean, string or enum/],
      [{ days: { type: 'integer', default: 1, min: 5, max: 2 } }, /min is above max/],
      [{ days: { type: 'integer', default: 1, min: 0.5 } }, /min and max must be whole numbers/],
      [{ days: { type: 'integer', default: 0, min: 1 } }, /the default does not fit/],
      [{ name: { type: 'string', default: 'x', maxLength: 500 } }, /maxLength must be 1 to 200/],
      [{ mode: { type: 'enum', default: 'a', options: [] } }, /options must be distinct texts/],
      [{ mode: { type: 'enum', default: 'c', options: ['a', 'b'] } }, /the default does not fit/],
    ]
    for (const [settings, problem] of cases) {
      assert.match(declarationProblems(settings).join('; '), problem)
      assert.throws(
        () => definePlugin({ id: 'sample', version: '1.0.0', settings: settings as SettingsDeclaration }),
        /Plugin "sample" declares an invalid setting/
      )
    }
  })

  test('sizes are shown in MB below 1 GB and in GB from there (bytes below 1 MB in messages)', ({ assert }) => {
    assert.deepEqual(bytesShown(0), { amount: 0, unit: 'MB' })
    assert.deepEqual(bytesShown(512 * 1024 ** 2), { amount: 512, unit: 'MB' })
    assert.deepEqual(bytesShown(1536 * 1024 ** 2), { amount: 1.5, unit: 'GB' })
    assert.deepEqual(bytesShown(10 * 1024 ** 3), { amount: 10, unit: 'GB' })
    assert.equal(bytesText(1, 'es'), '1 B')
    assert.equal(bytesText(0, 'es'), '0 MB')
    assert.equal(bytesText(1536 * 1024 ** 2, 'es'), '1,5 GB')
    assert.equal(bytesText(1536 * 1024 ** 2, 'en'), '1.5 GB')
  })

  test('only the live plugins with settings are offered to administrators', async ({ assert }) => {
    const withSettings = (id: string, boot?: () => void) =>
      definePlugin({ id, version: '1.0.0', settings: { days: { type: 'integer', default: 1 } }, boot })
    const definitions = [
      withSettings('alpha'),
      definePlugin({ id: 'plain', version: '1.0.0' }),
      withSettings('broken', () => {
        throw new Error('no scanner')
      }),
    ]
    const host = new PluginHost(
      [...definitions.map((d) => ({ id: d.id, definition: d })), { id: 'ghost', error: 'not found' }],
      {
        logger: { info() {}, warn() {}, error() {} },
        registerJob() {},
        enqueue: async () => ({ id: 'x' }),
        publish: async () => {},
        config: {},
        services: { forPlugin: () => ({}) as PluginServices },
      }
    )
    await host.register()
    await host.boot()
    assert.deepEqual(
      host.settingsDeclarations().map((p) => p.id),
      ['alpha']
    )
  })
})
