import { test } from '@japa/runner'
import {
  addDecision,
  addState,
  addStep,
  DEFAULT_DECISIONS,
  moveStep,
  processId,
  removeDecision,
  removeState,
  removeStep,
  setShownOnSteps,
  setValue,
  validateDocument,
  type DesignDocument,
} from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const run = (doc: DesignDocument, ...commands: ((d: DesignDocument) => DesignDocument)[]) =>
  commands.reduce((d, c) => c(d), doc)
const processProblems = (doc: DesignDocument) => validateDocument(doc).filter((p) => p.path.startsWith('/process'))
type AnyStep = { id: string; state?: string; next?: { step: string | null; state?: string }; go_to_states?: string[] }

test.group('model: process', () => {
  test('ids come from labels, as the schema wants them, and unique', ({ assert }) => {
    assert.equal(processId('Revisión de soportes', []), 'revision_de_soportes')
    assert.equal(processId('Aprobación', ['aprobacion']), 'aprobacion_2')
    assert.equal(processId('Aprobación', ['aprobacion', 'aprobacion_2']), 'aprobacion_3')
    assert.equal(processId('2º paso', []), 'paso')
    assert.equal(processId('¡¡!!', []), 'paso')
  })

  test('a designed two-step process with an approval validates; states go before end', ({ assert }) => {
    const doc = run(
      sampleDocument(),
      addState('En revisión', '#F9A825'),
      addState('Aprobado', '#2E7D32'),
      addStep('approve', 'Aprobación del jefe'),
      setValue('/process/steps/0/next', { step: 'aprobacion_del_jefe' }),
      setValue('/process/steps/0/state', 'en_revision'),
      setValue('/process/steps/1/assign', { type: 'field', field: 'jefe' }),
      setValue('/process/steps/1/decisions/0/next', { step: null, state: 'aprobado' })
    )
    assert.deepEqual(
      (doc.process.states as { id: string }[]).map((s) => s.id),
      ['init', 'en_revision', 'aprobado', 'end']
    )
    const approval = (doc.process.steps as { decisions: unknown[] }[])[1]!
    assert.deepEqual(
      approval.decisions,
      DEFAULT_DECISIONS.map((d, i) => (i === 0 ? { ...d, next: { step: null, state: 'aprobado' } } : d))
    )
    assert.deepEqual(processProblems(doc), [])
  })

  test('the first step of a process without a start becomes its start', ({ assert }) => {
    const empty = run(sampleDocument(), setValue('/process/steps', []), setValue('/process/start', { step: null }))
    const doc = addStep('fill', 'Llenar')(empty)
    assert.deepEqual(doc.process.start, { step: 'llenar' })
    // A new step names nobody yet: validation says so at the step's assignee.
    assert.isTrue(
      processProblems(doc).some((p) => p.path.startsWith('/process/steps/0/assign')),
      JSON.stringify(processProblems(doc))
    )
    assert.deepEqual(addStep('fill', 'Otro')(doc).process.start, { step: 'llenar' })
  })

  test('removing a state removes every reference to it', ({ assert }) => {
    const doc = run(
      sampleDocument(),
      addState('Revisión'),
      setValue('/process/steps/0/state', 'revision'),
      setValue('/process/steps/0/go_to_states', ['revision', 'end']),
      setValue('/process/start', { step: 'revision', state: 'revision' })
    )
    const after = removeState('revision')(doc)
    const step = (after.process.steps as AnyStep[])[0]!
    assert.notProperty(step, 'state')
    assert.deepEqual(step.go_to_states, ['end'])
    assert.deepEqual(after.process.start, { step: 'revision' })
    assert.deepEqual(processProblems(after), [])
    assert.throws(() => removeState('init'), /always there/)
    assert.throws(() => removeState('end'), /always there/)
    assert.throws(() => removeState('nada')(doc), /No state/)
  })

  test('removing a step ends what led to it and frees the fields shown only on it', ({ assert }) => {
    const doc = run(
      sampleDocument(),
      addStep('approve', 'Visto bueno'),
      setValue('/process/steps/0/next', { step: 'visto_bueno' }),
      setShownOnSteps('motivo', ['visto_bueno']),
      setShownOnSteps('nombre', ['revision', 'visto_bueno'])
    )
    const after = removeStep('visto_bueno')(doc)
    assert.deepEqual(
      (after.process.steps as AnyStep[]).map((s) => s.id),
      ['revision']
    )
    assert.deepEqual((after.process.steps as AnyStep[])[0]!.next, { step: null })
    const item = (name: string) => after.jsonconfig.fields.find((f) => f.field_name === name)!
    assert.notProperty(item('motivo'), 'show_on_task')
    assert.deepEqual(item('nombre').show_on_task, ['revision'])
    assert.deepEqual(processProblems(after), [])
    // The start itself can be left pointing nowhere: new cases then end at once.
    assert.deepEqual(removeStep('revision')(after).process.start, { step: null })
  })

  test('decisions are added and removed; steps reorder; unknown names are refused', ({ assert }) => {
    const doc = run(sampleDocument(), addStep('approve', 'Firma'), addDecision('firma', 'Devolver', '#ff8800'))
    const firma = () => (doc.process.steps as { id: string; decisions: { id: string }[] }[])[1]!
    assert.deepEqual(
      firma().decisions.map((d) => d.id),
      ['aprobar', 'rechazar', 'devolver']
    )
    const fewer = removeDecision('firma', 'rechazar')(doc)
    assert.deepEqual(
      (fewer.process.steps as { decisions: { id: string }[] }[])[1]!.decisions.map((d) => d.id),
      ['aprobar', 'devolver']
    )
    assert.deepEqual(
      (moveStep(1, 0)(doc).process.steps as AnyStep[]).map((s) => s.id),
      ['firma', 'revision']
    )
    assert.throws(() => removeDecision('firma', 'nada')(doc), /No decision/)
    assert.throws(() => setShownOnSteps('motivo', ['fantasma'])(doc), /No step fantasma/)
    assert.throws(() => setShownOnSteps('nadie', [])(doc), /No item/)
    assert.throws(() => addStep('fill', '  '), /needs a name/)
    // The start task is a step name fields may name too.
    const shown = setShownOnSteps('motivo', ['start', 'firma'])(doc)
    assert.deepEqual(shown.jsonconfig.fields.find((f) => f.field_name === 'motivo')!.show_on_task, ['start', 'firma'])
  })
})
