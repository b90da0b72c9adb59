import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { coreFieldTypes } from '@tramita/contract'

const texts = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')) as {
    types: Record<string, Record<string, string>>
  }

test.group('designer palette: type names', () => {
  test('every core field and element type has a readable name in es, en and zh, none its bare id', ({ assert }) => {
    for (const lang of ['es', 'en', 'zh']) {
      const { types } = texts(lang)
      for (const { kind, type } of coreFieldTypes) {
        const name = types[kind]?.[type]
        assert.isString(name, `${lang}: types.${kind}.${type}`)
        assert.notEqual(name, type, `${lang}: types.${kind}.${type} is the id`)
      }
    }
  })
})
