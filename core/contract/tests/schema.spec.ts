import { test } from '@japa/runner'
import {
  configJsonSchema,
  coreFieldTypes,
  coreRegistry,
  createFieldTypeRegistry,
  defineFieldType,
  itemWithDefaults,
  schemaProblems,
  validateConfig,
  withDefaults,
  FormConfigBase,
  type FormConfig,
  type FormConfigInput,
} from '../src/index.js'
import { Type } from '@sinclair/typebox'

/**
 * The types are derived from the schemas (TypeBox); this fixture, which writes every key of the
 * frame, is checked both ways: by the compiler as a FormConfigInput, and against the schema at run time.
 */
const input: FormConfigInput = {
  form: {
    display: 'wizard',
    body: { style: { maxwidth: 900, background: '#ffffff', background_image: '' } },
    grid: { columns: 12 },
    pages: [
      {
        name: 'Datos',
        section: false,
        section_id: '',
        layout: [['nombre', 'edad'], ['bloque']],
        style_from_body: false,
        style: {
          type_page: 'left',
          front_page: true,
          background: '#eeeeee',
          background_image: '/img/fondo.png',
          background_proportion: 4,
          lateral_paddings: 10,
          pagebar: true,
          page_style: { background: '#fff', opacity: 0.9, blur_backdrop: true, shadow: true, border: false },
          responsive: { mobile: 100, tablet: 90, computer: 70 },
          margins: { top: 50, bottom: 50 },
          maxwidth: 800,
          borderRadius: 10,
        },
        app_info: {
          navbar: { enable: true, section: 'cabecera', height: 60 },
          lateralMenu: { enable: false, section: '', width: 250 },
        },
      },
      { name: 'Cabecera', section: true, section_id: 'cabecera', layout: [['titulo']] },
    ],
  },
  validations: {
    autocomplete: [
      {
        id_field: 'nombre',
        action: 'autocomplete',
        origin: 'databases',
        type: '',
        refers: '',
        query: { condition: '', id_db: 4, get_columns: ['nombre'], limit: 10, order: 'asc', pattern: '' },
      },
    ],
    actions: [
      {
        name: 'avisar',
        onevent: true,
        conditions: { active: true, code: 'edad > 17' },
        start_page: { active: false, page: 0 },
        actions: [{ type: 'push_notify', config: { message: 'hola' } }],
      },
    ],
  },
  fields: [
    {
      field_name: 'nombre',
      type: 'text',
      events: { on_change: ['avisar'] },
      data: { label: { value: 'Nombre' }, ref: { limit: 40 }, validate: { required: true }, autocomplete: ['Ana'] },
    },
    { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' }, limit: { min: 0, max: 120 } } },
  ],
  elements: [
    { field_name: 'bloque', type: 'text', data: { value: 'Hola ${nombre}' } },
    { field_name: 'titulo', type: 'text', data: { value: '# Título' } },
  ],
}
const fullConfig: FormConfig = withDefaults(input)

test.group('schema and types', () => {
  test('a config typed as FormConfig passes the schema and validateConfig', ({ assert }) => {
    assert.deepEqual(schemaProblems(FormConfigBase, fullConfig), [])
    assert.deepEqual(validateConfig(fullConfig), [])
  })

  test('every registered type: an item with its defaults passes its schema', ({ assert }) => {
    for (const fieldType of coreFieldTypes) {
      const minimal: Record<string, unknown> = { field_name: 'x', type: fieldType.type }
      if (fieldType.type === 'section') minimal.data = { section_id: 's' }
      const item = itemWithDefaults(minimal, fieldType.kind)
      assert.deepEqual(schemaProblems(fieldType.schema, item), [], `${fieldType.kind}:${fieldType.type}`)
      if (fieldType.holdsValue) {
        const value = fieldType.defaultValue(item)
        assert.deepEqual(schemaProblems(fieldType.valueSchema!, value), [], `${fieldType.type} default value`)
      }
    }
  })

  test('the registry lists every type of the spec, fields and elements apart', ({ assert }) => {
    const registry = coreRegistry()
    const fields = registry.list('field').map((t) => t.type)
    const elements = registry.list('element').map((t) => t.type)
    for (const type of [
      'text',
      'number',
      'textarea',
      'celular',
      'select',
      'list',
      'radios',
      'date',
      'time',
      'image',
      'signature',
      'level',
      'file',
      'tramita',
      'checkbox',
      'radio',
      'switch',
      'table',
      'email',
      'money',
      'areas',
      'roles',
      'users',
      'machines',
      'var',
    ]) {
      assert.include(fields, type)
    }
    assert.sameMembers(elements, ['divider', 'separate', 'text', 'image', 'send', 'html', 'button', 'section', 'save'])
    assert.throws(() => registry.require('field', 'nope'), /Unknown field type "nope"/)
  })

  test('a plugin type joins through an explicit registry; a duplicate is refused', ({ assert }) => {
    const rating = defineFieldType({
      type: 'nps',
      data: { max: Type.Integer({ default: 10 }) },
      value: Type.Integer({ minimum: 0 }),
      defaultValue: () => 0,
    })
    const registry = createFieldTypeRegistry([...coreFieldTypes, rating])
    const config = { form: { pages: [{ name: 'P', layout: [['n']] }] }, fields: [{ field_name: 'n', type: 'nps' }] }
    assert.deepEqual(validateConfig(config, registry), [])
    assert.deepEqual(validateConfig(config), [{ path: '/fields/0/type', message: '"nps" is not a known field type' }])
    assert.equal(withDefaults(config, registry).fields[0]!.data.max, 10)
    assert.throws(() => createFieldTypeRegistry([...coreFieldTypes, coreFieldTypes[0]!]), /registered twice/)
  })

  test('the exported JSON Schema accepts a resolved config and refuses a wrong field', ({ assert }) => {
    const schema = configJsonSchema()
    assert.deepEqual(schemaProblems(schema, fullConfig), [])
    const broken = structuredClone(fullConfig) as any
    broken.fields[1].data.limit.min = 'cero'
    assert.isAbove(schemaProblems(schema, broken).length, 0)
  })
})
