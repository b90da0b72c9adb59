import { globSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { enabledPluginPatterns } from '#tests/helpers/enabled_plugin_files'
import { split } from '#tests/helpers/shard'

test.group('sharding a suite (TRAMITA_SHARD)', () => {
  const files = ['a.spec.ts', 'b.spec.ts', 'c.spec.ts', 'd.spec.ts', 'e.spec.ts', 'f.spec.ts']

  test('every file lands in exactly one part, the same way each time', ({ assert }) => {
    const weights = { 'a.spec.ts': 90, 'b.spec.ts': 50, 'c.spec.ts': 40, 'd.spec.ts': 30, 'e.spec.ts': 20 }
    const parts = split(files, weights, 3)
    assert.lengthOf(parts, 3)
    assert.sameMembers(parts.flat(), files)
    assert.lengthOf(parts.flat(), files.length)
    assert.deepEqual(split([...files].reverse(), weights, 3), parts)
  })

  test('the longest files go to the lightest part; a file not measured counts as the median', ({ assert }) => {
    const weights = { 'a.spec.ts': 90, 'b.spec.ts': 50, 'c.spec.ts': 40, 'd.spec.ts': 30, 'e.spec.ts': 20 }
    // f counts 40, the median; then a → 1, b → 2, c → 3, f → 3, d → 2, e → 2.
    assert.deepEqual(split(files, weights, 3), [
      ['a.spec.ts'],
      ['b.spec.ts', 'd.spec.ts', 'e.spec.ts'],
      ['c.spec.ts', 'f.spec.ts'],
    ])
  })

  test('one part holds every file; more parts than files leave some empty', ({ assert }) => {
    assert.deepEqual(split(files, {}, 1), [files])
    const many = split(['x.spec.ts'], {}, 3)
    assert.deepEqual(many.flat(), ['x.spec.ts'])
  })
})

test.group("a suite's plugin files (bin/test.ts)", () => {
  test('plugins/* becomes each enabled plugin, in order; other patterns stay', ({ assert }) => {
    const patterns = ['tests/functional/**/*.spec.ts', '../../plugins/*/tests/functional/**/*.spec.ts']
    assert.deepEqual(enabledPluginPatterns(patterns, ['documents', 'devices']), [
      'tests/functional/**/*.spec.ts',
      '../../plugins/documents/tests/functional/**/*.spec.ts',
      '../../plugins/devices/tests/functional/**/*.spec.ts',
    ])
    assert.deepEqual(enabledPluginPatterns(patterns, []), ['tests/functional/**/*.spec.ts'])
  })

  test('a folder under plugins/ that is not enabled contributes no test file', ({ assert }) => {
    const root = fileURLToPath(new URL('../../', import.meta.url))
    const files = (enabled: string[]) =>
      enabledPluginPatterns(['../../plugins/*/tests/functional/**/*.spec.ts'], enabled).flatMap((p) =>
        globSync(p, { cwd: root })
      )
    const all = files(['documents', 'devices'])
    assert.isNotEmpty(all)
    assert.isTrue(all.every((f) => /plugins\/(documents|devices)\//.test(f)))
    assert.deepEqual(
      files(['devices']),
      all.filter((f) => f.includes('plugins/devices/'))
    )
  })
})
