import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { Value } from '@sinclair/typebox/value'
import {
  backgroundProportion,
  coreRegistry,
  deviceForWidth,
  FormConfigBase,
  navigablePages,
  pageWidth,
  withDefaults,
} from '../src/index.js'
import { generateForm } from './generate-form.js'

const item = (type: string, extra: Record<string, unknown> = {}) => ({ field_name: `x_${type}`, type, ...extra })

test.group('withDefaults: the spec defaults in one place', () => {
  const config = withDefaults({
    form: { pages: [{ name: 'P', layout: [] }] },
    fields: [
      'text',
      'image',
      'signature',
      'file',
      'level',
      'money',
      'number',
      'celular',
      'table',
      'switch',
      'select',
    ].map((t) => item(t)),
    elements: [item('save'), item('divider')],
  })
  const field = (type: string) => config.fields.find((f) => f.type === type)!

  test('form, body and page', ({ assert }) => {
    assert.equal(config.form.display, 'wizard')
    assert.equal(config.form.grid.columns, 12)
    assert.equal(config.form.body.style.maxwidth, 800)
    const page = config.form.pages[0]!
    assert.deepEqual(page.style.responsive, { mobile: 100, tablet: 90, computer: 70 })
    assert.deepEqual(page.style.margins, { top: 50, bottom: 50 })
    assert.equal(page.style.maxwidth, 800)
    assert.equal(page.style.borderRadius, 10)
    assert.equal(page.style.background_proportion, 4)
    assert.equal(backgroundProportion(page, 'tablet'), 2)
    assert.equal(backgroundProportion(page, 'computer'), 4)
    assert.equal(pageWidth(page, 'tablet'), 90)
    assert.isFalse(page.section)
    assert.deepEqual(config.validations, { autocomplete: [], actions: [] })
  })

  test('common field keys', ({ assert }) => {
    const text = field('text')
    assert.equal(text.data.width, -1)
    assert.equal(text.data.space, 1)
    assert.equal(text.data.height, 45)
    assert.isFalse(text.data.validate.required)
    assert.equal(text.data.ref.limit, -1)
    assert.deepEqual(text.state, { show: true, natural: 'enabled', see: true })
    assert.deepEqual(text.data.design.responsive, { mobile: 12, tablet: 12, computer: 12 })
    assert.equal(text.data.design.radius, 5)
    assert.equal(text.data.design.font_size, 16)
    assert.isTrue(text.saveable)
  })

  test('type-specific heights and settings', ({ assert }) => {
    assert.equal(field('image').data.height, 180)
    assert.isTrue(field('image').data.configControl.resize)
    assert.equal(field('signature').data.height, 200)
    assert.equal(field('file').data.height, 90)
    assert.equal(field('level').data.height, 45)
    assert.equal(field('level').data.levels, 5)
    assert.deepEqual(field('money').data.money, {
      enabled: true,
      locate: 'es-CO',
      currency: 'COP',
      type_display: 'symbol',
      useGrouping: true,
      accountingSign: false,
    })
    assert.isFalse(field('number').data.money.enabled)
    assert.deepEqual(field('number').data.decimals, { enabled: false, significant: 2 })
    assert.deepEqual(field('number').data.limit, { min: -1, max: -1 })
    assert.equal(field('celular').data.code, 'CO')
    assert.deepEqual(field('switch').data.options, { true: 'YES', false: 'NO' })
    assert.lengthOf(field('select').data.options, 1)
    const table = (field('table').data.ref as Record<string, any>).table
    assert.deepEqual(table.pagination, {
      start: 10,
      size: 10,
      showBar: true,
      showSelect: true,
      selectOptions: '10,20,30',
    })
    assert.equal(table.uniqueKey, 'id')
    const save = config.elements.find((e) => e.type === 'save')!
    assert.deepEqual(save.data.style, { background: '#1C1066', color: '', height: 45 })
    assert.equal(save.data.type, 'send')
    assert.equal(config.elements.find((e) => e.type === 'divider')!.data.orientation, 'h')
  })

  test('given values are kept and the input is not changed', ({ assert }) => {
    const input = {
      form: { pages: [{ name: 'P', layout: [], style: { maxwidth: 500 } }] },
      fields: [item('image', { data: { height: 99 } })],
    }
    const copy = structuredClone(input)
    const resolved = withDefaults(input)
    assert.equal(resolved.form.pages[0]!.style.maxwidth, 500)
    assert.equal(resolved.fields[0]!.data.height, 99)
    assert.deepEqual(input, copy)
  })

  test('devices and navigation', ({ assert }) => {
    assert.equal(deviceForWidth(767), 'mobile')
    assert.equal(deviceForWidth(768), 'tablet')
    assert.equal(deviceForWidth(1024), 'tablet')
    assert.equal(deviceForWidth(1025), 'computer')
    const twoPages = withDefaults({
      form: { pages: [{ name: 'A' }, { name: 'S', section: true, section_id: 's' }, { name: 'B' }] },
    })
    assert.deepEqual(navigablePages(twoPages), [0, 2])
  })
})

test.group('withDefaults: the compiled applier gives what TypeBox gives', () => {
  /** The reference: TypeBox's own Value.Default over the same schemas. */
  function reference(config: any): unknown {
    const registry = coreRegistry()
    const copy = JSON.parse(JSON.stringify(config))
    const resolved = Value.Default(FormConfigBase, copy) as any
    for (const [key, kind] of [
      ['fields', 'field'],
      ['elements', 'element'],
    ] as const) {
      resolved[key] = resolved[key].map((entry: any) => {
        const type = registry.get(kind, entry.type)
        return type ? Value.Default(type.schema, entry) : entry
      })
    }
    return resolved
  }

  const every = (kind: 'field' | 'element') =>
    coreRegistry()
      .list(kind)
      .map((t) => t.type)

  test('every template in templates/forms', async ({ assert }) => {
    const folder = new URL('../../../templates/forms/', import.meta.url)
    const files = (await readdir(folder)).filter((f) => f.endsWith('.json'))
    assert.isAbove(files.length, 4)
    for (const file of files) {
      const config = JSON.parse(await readFile(new URL(file, folder), 'utf8'))
      assert.deepEqual(withDefaults(config), reference(config), file)
    }
  })

  test('a generated 500-field form, and every type bare and with partial nested settings', ({ assert }) => {
    const { config } = generateForm()
    assert.deepEqual(withDefaults(config), reference(config))
    const partial = {
      form: { pages: [{ name: 'P', layout: [], style: { page_style: { blur_backdrop: true } } }] },
      fields: every('field').flatMap((type, i) => [
        { field_name: `a${i}`, type },
        {
          field_name: `b${i}`,
          type,
          data: { design: { responsive: { mobile: 6 } }, state: { see: false }, ref: { limit: 3 } },
          state: { natural: 'readonly' },
        },
      ]),
      elements: every('element').map((type, i) => ({ field_name: `e${i}`, type, data: { value: 'x' } })),
    }
    assert.deepEqual(withDefaults(partial), reference(partial))
  })
})
