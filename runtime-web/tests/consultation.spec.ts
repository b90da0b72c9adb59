import { test } from '@japa/runner'
import {
  fieldRows,
  fileUrl,
  formatConsultDate,
  lastUpdate,
  moveWithin,
  previewKind,
  progressSteps,
  searchActivities,
  searchRows,
  type ActivityEntry,
  type FormByFlow,
} from '../src/lib/consultation.js'

const names = { init: 'Iniciado', end: 'Finalizado' }

const entry = (date: string, label = 'x', asignados = ''): ActivityEntry => ({
  type: 'assign',
  event: 'assigned',
  label,
  color: '',
  date,
  asignados,
  type_asignador: 'area',
})

test.group('consultation: dates', () => {
  test('YYYY/MM/DD HH:mm:ss in local time, zero-padded', ({ assert }) => {
    assert.equal(formatConsultDate(new Date(2026, 0, 5, 7, 8, 9)), '2026/01/05 07:08:09')
    assert.equal(formatConsultDate(new Date(2026, 11, 31, 23, 59, 59)), '2026/12/31 23:59:59')
    // An ISO string from the server is read as the instant it names and shown in local time.
    const iso = new Date(2026, 10, 23, 14, 5, 0).toISOString()
    assert.equal(formatConsultDate(iso), '2026/11/23 14:05:00')
  })

  test('missing or unreadable dates give an empty text', ({ assert }) => {
    for (const bad of [null, undefined, '', 'not a date']) assert.equal(formatConsultDate(bad), '')
  })

  test('the last update comes from the last activity entry, else the fallback', ({ assert }) => {
    const first = new Date(2026, 1, 1, 8, 0, 0).toISOString()
    const last = new Date(2026, 1, 2, 9, 30, 15).toISOString()
    const fallback = new Date(2025, 0, 1, 0, 0, 0).toISOString()
    assert.equal(lastUpdate([entry(first), entry(last)], fallback), '2026/02/02 09:30:15')
    assert.equal(lastUpdate([], fallback), '2025/01/01 00:00:00')
    assert.equal(lastUpdate([], null), '')
  })
})

test.group('consultation: progress bar (the path the case took)', () => {
  const states = [
    { id: 'revision', label: 'En revisión', color: '#f0a000' },
    { id: 'end', label: 'Cierre', color: '#1C1066' },
    { id: 'aprobado', label: 'Aprobado', color: '#00aa55' },
    { id: 'rechazado', label: 'Rechazado', color: '#cc0000' },
    { id: 'init', label: 'Comienzo', color: '#7f82ff' },
  ]
  const at = (id: string, label = id, date: string | null = '2026-02-01T08:00:00.000Z') => ({
    id,
    label,
    color: '',
    date,
  })

  test('only the states entered, in order; the last is current and has no arrow', ({ assert }) => {
    const steps = progressSteps(
      states,
      [at('init', 'Comienzo', null), at('revision'), at('aprobado')],
      { id: 'aprobado' },
      names
    )
    assert.deepEqual(
      steps.map((s) => s.label),
      ['Iniciado', 'En revisión', 'Aprobado'],
      'no Rechazado, no Finalizado: the case never went there'
    )
    assert.deepEqual(
      steps.map((s) => [s.current, s.last]),
      [
        [false, false],
        [false, false],
        [true, true],
      ]
    )
    assert.equal(steps[1].color, '#f0a000', "the process's colour")
    assert.equal(steps[0].date, '')
    assert.match(steps[1].date, /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/)
  })

  test('a state entered twice is drawn twice; end reads Finalizado', ({ assert }) => {
    const path = [at('init'), at('revision'), at('rechazado'), at('revision'), at('end')]
    assert.deepEqual(
      progressSteps(states, path, { id: 'end' }, names).map((s) => s.label),
      ['Iniciado', 'En revisión', 'Rechazado', 'En revisión', 'Finalizado']
    )
  })

  test('a state no longer in the process keeps its logged label; without a path, init then the current', ({
    assert,
  }) => {
    assert.equal(
      progressSteps(states, [at('init'), at('pausa', 'En pausa')], { id: 'pausa' }, names)[1].label,
      'En pausa'
    )
    assert.deepEqual(
      progressSteps(states, undefined, { id: 'revision', label: 'En revisión' }, names).map((s) => s.id),
      ['init', 'revision']
    )
    assert.deepEqual(
      progressSteps(states, [], { id: 'init' }, names).map((s) => [s.id, s.current]),
      [['init', true]]
    )
  })
})

test.group('consultation: tab rows and search', () => {
  const info: Pick<FormByFlow, 'jsonconfig' | 'fields_values'> = {
    jsonconfig: {
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
        { field_name: 'motivo', type: 'textarea', data: { label: { value: 'Motivo' } } },
        { field_name: 'sin_etiqueta', type: 'number' },
        { field_name: 'foto', type: 'image', data: { label: { value: 'Foto' } } },
        { field_name: 'firma', type: 'signature', data: { label: { value: 'Firma' } } },
        { field_name: 'soportes', type: 'file', data: { label: { value: 'Soportes' } } },
      ],
    },
    fields_values: {
      nombre: { type: 'text', value_replace: 'Ana Ruiz', value_simple: 'Ana Ruiz', value: 'Ana Ruiz' },
      motivo: { type: 'textarea', value_replace: '  ', value_simple: '', value: '' },
      foto: {
        type: 'image',
        value_replace: 'cara.png',
        value_simple: 'images/2026/11/a.png',
        value: { ext: '.png', ip: '', path: 'images/2026/11/a.png', real_name: 'cara.png', status: 'good' },
      },
      firma: {
        type: 'signature',
        value_replace: 'firmado el 2026-11-20 desde 10.0.0.1',
        value_simple: 'signatures/2026/11/f.png',
        value: { path: 'signatures/2026/11/f.png', date: '2026-11-20', ip: '10.0.0.1', device: '' },
      },
      soportes: {
        type: 'file',
        value_replace: 'incapacidad.pdf, nota.docx',
        value_simple: '[]',
        value: [
          { ext: '.pdf', ip: '', path: 'files/2026/11/b.pdf', real_name: 'incapacidad.pdf', status: 'good' },
          { ext: '.docx', ip: '', path: 'files/2026/11/c.docx', real_name: 'nota.docx', status: 'good' },
        ],
      },
      CODE_PROCESS: 'K7M2Q-9XD4H',
      ID_PROCESS: 7,
    },
  }

  test('documents are image, signature and file fields; the rest is information', ({ assert }) => {
    const { information, documents } = fieldRows(info)
    assert.deepEqual(
      information.map((r) => [r.label, r.text]),
      [
        ['Nombre', 'Ana Ruiz'],
        ['Motivo', ''],
        ['sin_etiqueta', ''],
      ]
    )
    assert.deepEqual(
      documents.map((r) => r.name),
      ['foto', 'firma', 'soportes']
    )
    assert.deepEqual(documents[0].files, [{ name: 'cara.png', url: '/images/2026/11/a.png', kind: 'image' }])
    assert.equal(fieldRows(info, 'flow').documents[0].files[0].url, '/images/2026/11/a.png?id_flow=flow')
    assert.deepEqual(documents[1].files, [{ name: 'Firma.png', url: '/signatures/2026/11/f.png', kind: 'image' }])
    assert.deepEqual(
      documents[2].files.map((f) => [f.name, f.kind]),
      [
        ['incapacidad.pdf', 'pdf'],
        ['nota.docx', null],
      ]
    )
  })

  test('search matches label, name, value and file names, ignoring case and accents', ({ assert }) => {
    const { information, documents } = fieldRows(info)
    assert.deepEqual(
      searchRows(information, 'ANA').map((r) => r.name),
      ['nombre']
    )
    assert.deepEqual(
      searchRows(information, 'etiqueta').map((r) => r.name),
      ['sin_etiqueta']
    )
    // Found by one file name: the row keeps only that file; found by its label: all of them.
    assert.deepEqual(
      searchRows(documents, 'incapacidad').map((r) => [r.name, r.files.map((f) => f.name)]),
      [['soportes', ['incapacidad.pdf']]]
    )
    assert.lengthOf(searchRows(documents, 'soportes')[0].files, 2)
    assert.strictEqual(searchRows(information, '   '), information)
    assert.deepEqual(searchRows(information, 'nadie'), [])
    const accented = [{ name: 'x', label: 'Revisión', type: 'text', text: '', files: [] }]
    assert.lengthOf(searchRows(accented, 'revision'), 1)
  })

  test('activity search matches the assignee text or the label', ({ assert }) => {
    const log = [
      entry('2026-01-01', 'Revisión de soportes', 'Secretaría'),
      entry('2026-01-02', 'Aprobación', 'Sergio Supervisor'),
      entry('2026-01-03', 'Aprobado', ''),
    ]
    assert.deepEqual(
      searchActivities(log, 'secretaria').map((e) => e.label),
      ['Revisión de soportes']
    )
    assert.deepEqual(
      searchActivities(log, 'aprob').map((e) => e.label),
      ['Aprobación', 'Aprobado']
    )
    assert.strictEqual(searchActivities(log, ''), log)
  })
})

test.group('consultation: files and the preview panel', () => {
  test('file paths become links on this host; only http(s) URLs stay as they are', ({ assert }) => {
    assert.equal(fileUrl('files/a.pdf'), '/files/a.pdf')
    assert.equal(fileUrl('/files/a.pdf'), '/files/a.pdf')
    assert.equal(fileUrl('//evil.example/x.pdf'), '/evil.example/x.pdf')
    assert.equal(fileUrl('javascript:alert(1)'), '/javascript:alert(1)')
    assert.equal(fileUrl('https://docs.example/a.pdf'), 'https://docs.example/a.pdf')
    // Files on this host carry the consultation's id_flow, which lets the visitor read them.
    assert.equal(fileUrl('/data/files/a.png', '12.x+y/z'), '/data/files/a.png?id_flow=12.x%2By%2Fz')
    assert.equal(fileUrl('/data/files/a.png?v=1', 'k'), '/data/files/a.png?v=1&id_flow=k')
    assert.equal(fileUrl('https://docs.example/a.pdf', 'k'), 'https://docs.example/a.pdf')
  })

  test('images and PDFs have a preview; other files do not', ({ assert }) => {
    assert.equal(previewKind('.PNG'), 'image')
    assert.equal(previewKind('files/x.jpeg?v=2'), 'image')
    assert.equal(previewKind('informe.pdf'), 'pdf')
    assert.isNull(previewKind('nota.docx'))
    assert.isNull(previewKind(''))
  })

  test('moving the panel keeps it inside the viewport', ({ assert }) => {
    const viewport = { width: 1000, height: 800 }
    const box = { left: 400, top: 100, width: 300, height: 200 }
    assert.deepEqual(moveWithin({ x: 0, y: 0 }, { x: 50, y: -20 }, box, viewport), { x: 50, y: -20 })
    // Not past the right or top edge.
    assert.deepEqual(moveWithin({ x: 0, y: 0 }, { x: 900, y: -500 }, box, viewport), { x: 300, y: -100 })
    // Not past the left or bottom edge; the offset adds to the one it had.
    assert.deepEqual(moveWithin({ x: 10, y: 10 }, { x: -900, y: 900 }, box, viewport), { x: -390, y: 510 })
    // A panel wider than the viewport goes no further left than the edge.
    const wide = { left: 0, top: 0, width: 1200, height: 100 }
    assert.deepEqual(moveWithin({ x: 0, y: 0 }, { x: 40, y: 0 }, wide, viewport), { x: 0, y: 0 })
  })
})
