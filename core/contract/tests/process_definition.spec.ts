import { test } from '@japa/runner'
import { processWithDefaults, validateProcess, withDefaults } from '../src/index.js'

const form = withDefaults({
  form: { pages: [{ name: 'P', layout: [['nombre', 'jefe', 'correo']] }] },
  fields: [
    { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
    { field_name: 'jefe', type: 'users', data: { label: { value: 'Jefe' } } },
    { field_name: 'correo', type: 'email', data: { label: { value: 'Correo' } } },
  ],
})

/** A permit process: an area reviews, a role approves or sends it back. */
function permit(): any {
  return {
    label: 'Permiso',
    states: [
      { id: 'init', label: 'Iniciado' },
      { id: 'revision', label: 'En revisión', color: '#f0a000' },
      { id: 'aprobado', label: 'Aprobado' },
      { id: 'end', label: 'Finalizado' },
    ],
    start: { step: 'revision' },
    steps: [
      {
        id: 'revision',
        label: 'Revisión',
        assign: { type: 'area', id: 3 },
        state: 'revision',
        next: { step: 'aprobacion' },
      },
      {
        id: 'aprobacion',
        label: 'Aprobación',
        kind: 'approve',
        assign: { type: 'field', field: 'jefe' },
        decisions: [
          { id: 'si', label: 'Aprobar', next: { step: null, state: 'aprobado' } },
          { id: 'no', label: 'Devolver', next: { step: 'revision' } },
        ],
      },
    ],
    external_consultation: { enable: true, select_restrinct_consult: 'correo', select_show_info: ['nombre'] },
  }
}

const paths = (problems: { path: string }[]) => problems.map((p) => p.path)

test.group('process definition', () => {
  test('a valid process has no problems; defaults are filled on a copy', ({ assert }) => {
    const input = permit()
    assert.deepEqual(validateProcess(input, form), [])
    const resolved = processWithDefaults(input)
    assert.equal(resolved.steps[0].kind, 'fill')
    assert.isTrue(resolved.steps[0].notify)
    assert.deepEqual(resolved.steps[0].go_to_states, [])
    assert.deepEqual(resolved.starters, { users: [], roles: [], areas: [] })
    assert.equal(resolved.states[0].color, '#1C1066')
    assert.isFalse(resolved.external_consultation.activity_register)
    assert.notProperty(input.steps[0], 'kind', 'the input is not changed')
  })

  test('references are checked at their paths', ({ assert }) => {
    const p = permit()
    p.states = p.states.filter((s: { id: string }) => s.id !== 'end')
    p.states.push({ id: 'revision', label: 'Otra vez' })
    p.steps[0].next = { step: 'nadie', state: 'limbo' }
    p.steps[0].go_to_states = ['aprobado', 'cielo']
    p.steps[0].decisions = [{ id: 'x', label: 'X', next: {} }]
    p.steps[1].assign = { type: 'field', field: 'no_existe' }
    p.steps[1].decisions.push({ id: 'si', label: 'Repetida', next: { step: 'fantasma' } })
    p.steps.push({ id: 'revision', label: 'Duplicado', assign: { type: 'rol' }, next: {} })
    p.steps.push({ id: 'start', label: 'Reservado', assign: { type: 'external', email: 'no es correo' }, next: {} })
    p.external_consultation.select_show_info = ['nombre', 'oculto']
    assert.sameMembers(paths(validateProcess(p, form)), [
      '/states',
      '/states/3/id',
      '/steps/0/next/step',
      '/steps/0/next/state',
      '/steps/0/go_to_states/1',
      '/steps/0/decisions',
      '/steps/1/assign/field',
      '/steps/1/decisions/2/id',
      '/steps/1/decisions/2/next/step',
      '/steps/2/id',
      '/steps/2/assign/id',
      '/steps/3/id',
      '/steps/3/assign/email',
      '/external_consultation/select_show_info/1',
    ])
  })

  test('an approval step needs decisions and no next; without a form, field names are not checked', ({ assert }) => {
    const p = permit()
    p.steps[1].decisions = []
    p.steps[1].next = { step: 'revision' }
    p.external_consultation.select_restrinct_consult = 'cualquiera'
    assert.deepEqual(paths(validateProcess(p)), ['/steps/1/next', '/steps/1/decisions'])
  })

  test('schema problems come first, with paths', ({ assert }) => {
    assert.deepEqual(validateProcess('no'), [{ path: '', message: 'the process definition must be an object' }])
    const p = permit()
    p.color = 'rojo'
    p.states[1].id = 'En Revisión'
    p.extra = true
    assert.sameMembers(paths(validateProcess(p, form)), ['/color', '/states/1/id', '/extra'])
  })
})
