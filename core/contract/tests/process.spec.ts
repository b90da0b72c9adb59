import { test } from '@japa/runner'
import { processWithDefaults, validateConfig, validateProcess, withDefaults } from '../src/index.js'

/** The permit request form: who asks, their id number, their boss, a contact e-mail, and a save button. */
const formInput = {
  form: { pages: [{ name: 'Solicitud', layout: [['solicitante', 'cedula'], ['jefe', 'correo'], ['guardar']] }] },
  fields: [
    { field_name: 'solicitante', type: 'text', data: { label: { value: 'Solicitante' } } },
    { field_name: 'cedula', type: 'text', data: { label: { value: 'Cédula' } } },
    { field_name: 'jefe', type: 'users', data: { label: { value: 'Jefe inmediato' } } },
    { field_name: 'correo', type: 'email', data: { label: { value: 'Correo' } } },
  ],
  elements: [{ field_name: 'guardar', type: 'save' }],
}
const form = withDefaults(formInput)

/** A permit request: an area fills it in, a role approves it or sends it back for revision. */
function permit(): any {
  return {
    label: 'Solicitud de permiso',
    states: [
      { id: 'init', label: 'Iniciado' },
      { id: 'revision', label: 'En revisión', color: '#f0a000' },
      { id: 'aprobado', label: 'Aprobado', color: '#00a000' },
      { id: 'rechazado', label: 'Rechazado', color: '#c00000' },
      { id: 'end', label: 'Finalizado' },
    ],
    start: { step: 'diligenciar' },
    steps: [
      {
        id: 'diligenciar',
        label: 'Diligenciar solicitud',
        assign: { type: 'area', id: 3 },
        state: 'revision',
        next: { step: 'aprobar' },
      },
      {
        id: 'aprobar',
        label: 'Aprobar solicitud',
        kind: 'approve',
        assign: { type: 'rol', id: 7 },
        decisions: [
          { id: 'aprobar', label: 'Aprobar', next: { step: null, state: 'aprobado' } },
          { id: 'rechazar', label: 'Rechazar', color: '#c00000', next: { step: 'diligenciar', state: 'rechazado' } },
        ],
      },
    ],
    external_consultation: {
      enable: true,
      select_restrinct_consult: 'cedula',
      label_restrinct_consult: 'Número de cédula',
      select_show_info: ['solicitante', 'correo'],
    },
  }
}

type Problem = { path: string; message: string }
const paths = (problems: Problem[]) => problems.map((p) => p.path)
const at = (problems: Problem[], path: string) => problems.filter((p) => p.path === path)

test.group('process definition: a valid permit request', () => {
  test('the form it is checked against is itself valid', ({ assert }) => {
    assert.deepEqual(validateConfig(formInput), [])
  })

  test('has no problems, with the form and without it', ({ assert }) => {
    assert.deepEqual(validateProcess(permit(), form), [])
    assert.deepEqual(validateProcess(permit()), [])
  })

  test('processWithDefaults fills every default', ({ assert }) => {
    const resolved = processWithDefaults(permit())
    assert.equal(resolved.version, 1)
    assert.equal(resolved.color, '#1C1066')
    assert.deepEqual(resolved.starters, { users: [], roles: [], areas: [] })
    assert.equal(resolved.states[0]!.color, '#1C1066')
    assert.equal(resolved.states[1]!.color, '#f0a000', 'a given colour is kept')
    const [fill, approve] = resolved.steps
    assert.equal(fill!.kind, 'fill')
    assert.isTrue(fill!.notify)
    assert.deepEqual(fill!.go_to_states, [])
    assert.deepEqual(fill!.decisions, [])
    assert.equal(approve!.kind, 'approve')
    assert.isTrue(approve!.notify)
    assert.deepEqual(approve!.go_to_states, [])
    assert.deepEqual(approve!.next, { step: null })
    assert.equal(approve!.decisions[0]!.color, '#1C1066')
    assert.equal(approve!.decisions[1]!.color, '#c00000')
    assert.deepEqual(resolved.external_consultation, {
      enable: true,
      select_restrinct_consult: 'cedula',
      label_restrinct_consult: 'Número de cédula',
      select_show_info: ['solicitante', 'correo'],
      activity_register: false,
    })
  })

  test('processWithDefaults fills missing objects and leaves the input unchanged', ({ assert }) => {
    const input = {
      label: 'Mínimo',
      states: [
        { id: 'init', label: 'Iniciado' },
        { id: 'end', label: 'Fin' },
      ],
    }
    const before = JSON.parse(JSON.stringify(input))
    const resolved = processWithDefaults(input)
    assert.deepEqual(resolved.start, { step: null })
    assert.deepEqual(resolved.steps, [])
    assert.equal(resolved.external_consultation.enable, false)
    assert.isFalse(resolved.external_consultation.activity_register)
    assert.deepEqual(resolved.external_consultation.select_show_info, [])
    assert.deepEqual(input, before, 'the input is not changed')
    assert.notProperty(input, 'version')
    assert.notProperty(input.states[0], 'color')
    assert.notStrictEqual(resolved.states, input.states)

    const full = permit()
    const fullBefore = JSON.parse(JSON.stringify(full))
    processWithDefaults(full)
    validateProcess(full, form)
    assert.deepEqual(full, fullBefore, 'neither processWithDefaults nor validateProcess change their input')
  })

  test('a minimal process (only init and end, no steps) is valid', ({ assert }) => {
    assert.deepEqual(
      validateProcess(
        {
          label: 'Mínimo',
          states: [
            { id: 'init', label: 'I' },
            { id: 'end', label: 'F' },
          ],
        },
        form
      ),
      []
    )
  })
})

test.group('process definition: references', () => {
  test('missing init or end state is reported at /states', ({ assert }) => {
    const noInit = permit()
    noInit.states = noInit.states.filter((s: any) => s.id !== 'init')
    assert.deepEqual(validateProcess(noInit), [{ path: '/states', message: 'the state "init" is missing' }])

    const noEnd = permit()
    noEnd.states = noEnd.states.filter((s: any) => s.id !== 'end')
    assert.deepEqual(validateProcess(noEnd), [{ path: '/states', message: 'the state "end" is missing' }])

    const neither = permit()
    neither.states = neither.states.filter((s: any) => s.id !== 'end' && s.id !== 'init')
    assert.deepEqual(paths(validateProcess(neither)), ['/states', '/states'])
  })

  test('a repeated state id is reported at the repetition', ({ assert }) => {
    const def = permit()
    def.states.push({ id: 'revision', label: 'Otra revisión' })
    assert.deepEqual(validateProcess(def), [{ path: '/states/5/id', message: 'state "revision" is repeated' }])
  })

  test('a repeated step id is reported at the repetition', ({ assert }) => {
    const def = permit()
    def.steps.push({ id: 'diligenciar', label: 'Otra vez', assign: { type: 'user', id: 1 } })
    assert.deepEqual(validateProcess(def), [{ path: '/steps/2/id', message: 'step "diligenciar" is repeated' }])
  })

  test('a step cannot be named "start"', ({ assert }) => {
    const def = permit()
    def.steps.push({ id: 'start', label: 'Inicio', assign: { type: 'user', id: 1 } })
    assert.deepEqual(paths(validateProcess(def)), ['/steps/2/id'])
  })

  test('a next.step that is not a step is reported at .../next/step', ({ assert }) => {
    const def = permit()
    def.steps[0].next.step = 'firmar'
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/0/next/step', message: '"firmar" is not a step of this process' },
    ])

    const start = permit()
    start.start.step = 'nadie'
    assert.deepEqual(paths(validateProcess(start)), ['/start/step'])
  })

  test('unknown states in step.state, next.state and go_to_states', ({ assert }) => {
    const def = permit()
    def.steps[0].state = 'archivado'
    def.steps[0].next.state = 'pendiente'
    def.steps[1].go_to_states = ['revision', 'cerrado', 'end', 'anulado']
    def.start.state = 'nuevo'
    const problems = validateProcess(def)
    assert.sameMembers(paths(problems), [
      '/start/state',
      '/steps/0/state',
      '/steps/0/next/state',
      '/steps/1/go_to_states/1',
      '/steps/1/go_to_states/3',
    ])
    assert.deepInclude(problems, { path: '/steps/0/state', message: '"archivado" is not a state of this process' })
    assert.deepInclude(problems, {
      path: '/steps/1/go_to_states/3',
      message: '"anulado" is not a state of this process',
    })
  })

  test('a user, rol or area assignee without an id', ({ assert }) => {
    for (const type of ['user', 'rol', 'area']) {
      const def = permit()
      def.steps[1].assign = { type }
      assert.deepEqual(
        validateProcess(def),
        [{ path: '/steps/1/assign/id', message: `a ${type} assignee needs an id` }],
        type
      )
    }
  })

  test('an external assignee needs a valid e-mail', ({ assert }) => {
    const ok = permit()
    ok.steps[0].assign = { type: 'external', email: 'ana.perez@ejemplo.gov.co', name: 'Ana Pérez' }
    assert.deepEqual(validateProcess(ok), [])

    for (const email of [undefined, '', 'ana', 'ana@ejemplo', 'ana perez@ejemplo.com', 'ana@@ejemplo.com']) {
      const def = permit()
      def.steps[0].assign = { type: 'external', name: 'Ana', ...(email === undefined ? {} : { email }) }
      assert.deepEqual(
        validateProcess(def),
        [{ path: '/steps/0/assign/email', message: 'an external assignee needs a valid e-mail' }],
        String(email)
      )
    }
  })

  test('a field assignee must name a field of the form', ({ assert }) => {
    const ok = permit()
    ok.steps[1].assign = { type: 'field', field: 'jefe' }
    assert.deepEqual(validateProcess(ok, form), [])

    const unknown = permit()
    unknown.steps[1].assign = { type: 'field', field: 'gerente' }
    assert.deepEqual(validateProcess(unknown, form), [
      { path: '/steps/1/assign/field', message: '"gerente" is not a field of the form' },
    ])

    const element = permit()
    element.steps[1].assign = { type: 'field', field: 'guardar' }
    assert.deepEqual(paths(validateProcess(element, form)), ['/steps/1/assign/field'], 'an element is not a field')

    const none = permit()
    none.steps[1].assign = { type: 'field' }
    assert.deepEqual(validateProcess(none, form), [
      { path: '/steps/1/assign/field', message: 'name the field that holds the assignee' },
    ])
    assert.deepEqual(paths(validateProcess(none)), ['/steps/1/assign/field'], 'a field is needed even without a form')
  })

  test('without a form, field names are not checked', ({ assert }) => {
    const def = permit()
    def.steps[1].assign = { type: 'field', field: 'gerente' }
    def.external_consultation.select_restrinct_consult = 'pasaporte'
    def.external_consultation.select_show_info = ['nada', 'guardar']
    assert.deepEqual(validateProcess(def), [])
    assert.deepEqual(paths(validateProcess(def, form)), [
      '/steps/1/assign/field',
      '/external_consultation/select_restrinct_consult',
      '/external_consultation/select_show_info/0',
      '/external_consultation/select_show_info/1',
    ])
  })

  test('an approve step needs decisions', ({ assert }) => {
    const def = permit()
    def.steps[1].decisions = []
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/1/decisions', message: 'an approval step needs at least one decision' },
    ])
    delete def.steps[1].decisions
    assert.deepEqual(paths(validateProcess(def)), ['/steps/1/decisions'], 'absent decisions default to none')
  })

  test('a repeated decision id', ({ assert }) => {
    const def = permit()
    def.steps[1].decisions.push({ id: 'aprobar', label: 'Aprobar de nuevo', next: { step: null } })
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/1/decisions/2/id', message: 'decision "aprobar" is repeated' },
    ])
  })

  test('a decision leading to an unknown step or state', ({ assert }) => {
    const def = permit()
    def.steps[1].decisions[1].next = { step: 'corregir', state: 'devuelto' }
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/1/decisions/1/next/step', message: '"corregir" is not a step of this process' },
      { path: '/steps/1/decisions/1/next/state', message: '"devuelto" is not a state of this process' },
    ])
  })

  test('a fill step with decisions', ({ assert }) => {
    const def = permit()
    def.steps[0].decisions = [{ id: 'listo', label: 'Listo', next: { step: 'aprobar' } }]
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/0/decisions', message: 'only approval steps have decisions' },
    ])
  })

  test('an approve step with a next (its decisions lead on)', ({ assert }) => {
    const def = permit()
    def.steps[1].next = { step: 'diligenciar' }
    assert.deepEqual(validateProcess(def), [
      { path: '/steps/1/next', message: 'an approval step leads on through its decisions, not next' },
    ])
  })

  test('external consultation fields must be fields of the form', ({ assert }) => {
    const def = permit()
    def.external_consultation.select_restrinct_consult = 'pasaporte'
    def.external_consultation.select_show_info = ['solicitante', 'telefono', 'guardar']
    assert.deepEqual(validateProcess(def, form), [
      { path: '/external_consultation/select_restrinct_consult', message: '"pasaporte" is not a field of the form' },
      { path: '/external_consultation/select_show_info/1', message: '"telefono" is not a field of the form' },
      { path: '/external_consultation/select_show_info/2', message: '"guardar" is not a field of the form' },
    ])

    const noRestrict = permit()
    noRestrict.external_consultation.select_restrinct_consult = ''
    assert.deepEqual(validateProcess(noRestrict, form), [], "'' means no restrict field")
  })

  test('every reference problem is reported at once', ({ assert }) => {
    const def = permit()
    def.states.push({ id: 'init', label: 'Otro inicio' })
    def.steps[0].next.step = 'firmar'
    def.steps[1].assign = { type: 'area' }
    def.steps[1].decisions[0].next.state = 'cerrado'
    assert.sameMembers(paths(validateProcess(def, form)), [
      '/states/5/id',
      '/steps/0/next/step',
      '/steps/1/assign/id',
      '/steps/1/decisions/0/next/state',
    ])
  })
})

test.group('process definition: schema problems', () => {
  test('not an object is one problem at the root', ({ assert }) => {
    for (const value of [null, undefined, 'proceso', 42, [], [permit()]]) {
      assert.deepEqual(
        validateProcess(value),
        [{ path: '', message: 'the process definition must be an object' }],
        JSON.stringify(value)
      )
    }
  })

  test('bad colour, bad state id and unknown key, each at its path', ({ assert }) => {
    const def = permit()
    def.states[0].id = 'Init Mayús'
    def.states[1].color = 'naranja'
    def.steps[0].colour = '#ffffff'
    def.steps[1].decisions[0].color = '#12345'
    const problems = validateProcess(def, form)
    assert.deepInclude(problems, { path: '/states/0/id', message: 'must match pattern "^[a-z][a-z0-9_]{0,39}$"' })
    assert.deepInclude(problems, { path: '/states/1/color', message: 'must match pattern "^#[0-9a-fA-F]{6}$"' })
    assert.deepInclude(problems, { path: '/steps/0/colour', message: 'is not a known key' })
    assert.lengthOf(at(problems, '/steps/1/decisions/0/color'), 1)
    assert.sameMembers(paths(problems), [
      '/states/0/id',
      '/states/1/color',
      '/steps/0/colour',
      '/steps/1/decisions/0/color',
    ])
    assert.notInclude(paths(problems), '/states', 'reference checks wait until the schema is valid')
  })

  test('required keys, wrong types and enum values', ({ assert }) => {
    const def = permit()
    delete def.label
    def.version = 2
    def.steps[0].kind = 'sign'
    def.steps[1].assign = { type: 'group', id: 7 }
    def.steps[1].notify = 'yes'
    def.starters = { users: [0], teams: [] }
    def.external_consultation.select_show_info = 'solicitante'
    const problems = validateProcess(def)
    assert.deepInclude(problems, { path: '/label', message: 'is required' })
    assert.deepInclude(problems, { path: '/steps/0/kind', message: 'must be one of: "fill", "approve"' })
    assert.deepInclude(problems, {
      path: '/steps/1/assign/type',
      message: 'must be one of: "user", "rol", "area", "external", "field"',
    })
    assert.deepInclude(problems, { path: '/starters/teams', message: 'is not a known key' })
    assert.sameMembers(paths(problems), [
      '/label',
      '/version',
      '/steps/0/kind',
      '/steps/1/assign/type',
      '/steps/1/notify',
      '/starters/teams',
      '/starters/users/0',
      '/external_consultation/select_show_info',
    ])
  })

  test('fewer than two states, and states that are not objects', ({ assert }) => {
    const one = permit()
    one.states = [{ id: 'init', label: 'Iniciado' }]
    assert.deepEqual(paths(validateProcess(one)), ['/states'])

    const notArray = permit()
    notArray.states = 'init,end'
    assert.deepEqual(validateProcess(notArray), [{ path: '/states', message: 'must be array' }])

    const nullStep = permit()
    nullStep.steps[1] = null
    assert.deepEqual(paths(validateProcess(nullStep)), ['/steps/1'])
  })

  test('a state id, step id or decision id must match the id pattern', ({ assert }) => {
    const def = permit()
    def.steps[0].id = '1er_paso'
    def.steps[1].decisions[0].id = 'Aprobar'
    def.steps[0].go_to_states = ['En Revisión']
    def.start.step = 'Diligenciar'
    assert.sameMembers(paths(validateProcess(def)), [
      '/steps/0/id',
      '/steps/1/decisions/0/id',
      '/steps/0/go_to_states/0',
      '/start/step',
    ])
  })
})

test.group('process definition: a decision comment rule', () => {
  test('is optional unless the process says otherwise', ({ assert }) => {
    const [, approve] = processWithDefaults(permit()).steps
    assert.deepEqual(
      approve!.decisions.map((d) => d.comment),
      ['optional', 'optional']
    )
  })

  test('none, optional and required are kept; anything else is reported at its path', ({ assert }) => {
    const input = permit()
    input.steps[1].decisions[0].comment = 'none'
    input.steps[1].decisions[1].comment = 'required'
    assert.deepEqual(validateProcess(input, form), [])
    assert.deepEqual(
      processWithDefaults(input).steps[1]!.decisions.map((d) => d.comment),
      ['none', 'required']
    )
    input.steps[1].decisions[1].comment = 'sometimes'
    assert.include(paths(validateProcess(input)), '/steps/1/decisions/1/comment')
  })
})
