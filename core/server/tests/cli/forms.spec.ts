import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { NOT_ABOUT_THE_DATABASE, runCli } from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'

/** forms:list, forms:import, forms:export, forms:validate and make:form against a real database. */
test.group('tramita forms commands', () => {
  test('make:form, validate, import (draft and published), list and export round-trip', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-forms')
    cleanup(() => db.drop())
    const dir = db.dataDir
    assert.equal((await runCli(['migrate'], db.env)).code, 0)

    const made = await runCli(['make:form', 'permiso', '--template', 'solicitud-permiso', '--dir', dir], db.env)
    assert.equal(made.code, 0, made.output)
    const file = join(dir, 'permiso.json')
    const scaffold = JSON.parse(readFileSync(file, 'utf8'))
    assert.equal(scaffold.name, 'Solicitud de permiso')
    assert.equal(scaffold.process.start.step, null)
    const again = await runCli(['make:form', 'permiso', '--template', 'solicitud-permiso', '--dir', dir], db.env)
    assert.equal(again.code, 1)
    assert.include(again.output, 'already exists')
    const unknown = await runCli(['make:form', 'otro', '--template', 'no-existe', '--dir', dir], db.env)
    assert.equal(unknown.code, 1)
    assert.include(unknown.output, 'unknown template')

    const valid = await runCli(['forms:validate', file], db.env)
    assert.equal(valid.code, 0, valid.output)
    assert.include(valid.output, 'valid jsonconfig form')

    const published = await runCli(['forms:import', file, '--publish'], db.env)
    assert.equal(published.code, 0, published.output)
    assert.match(published.output, /published as version 1/)

    // A Form.io form: what has no equivalent is named, and the form waits as a draft.
    const formio = join(dir, 'formio.json')
    writeFileSync(
      formio,
      JSON.stringify({
        components: [
          { type: 'textfield', key: 'nombre', label: 'Nombre', input: true },
          { type: 'weird', key: 'raro' },
        ],
      })
    )
    const drafted = await runCli(['forms:import', formio, '--format', 'formio', '--name', 'Desde Form.io'], db.env)
    assert.equal(drafted.code, 0, drafted.output)
    assert.include(drafted.output, 'not imported /components/1')
    assert.include(drafted.output, 'created as a draft')

    const list = await runCli(['forms:list', '--json'], db.env)
    assert.equal(list.code, 0, list.output)
    const forms = JSON.parse(list.output.slice(list.output.indexOf('[')))
    assert.deepEqual(
      forms.map((f: { name: string; latest_version: number | null }) => [f.name, f.latest_version]),
      [
        ['Desde Form.io', null],
        ['Solicitud de permiso', 1],
      ]
    )

    // The export of version 1 is the file that was imported, and imports again.
    const permitId = forms.find((f: { name: string }) => f.name === 'Solicitud de permiso').id
    const exported = join(dir, 'exported.json')
    const exportRun = await runCli(['forms:export', String(permitId), '--version', '1', '--out', exported], db.env)
    assert.equal(exportRun.code, 0, exportRun.output)
    const document = JSON.parse(readFileSync(exported, 'utf8'))
    assert.deepEqual(document, { ...scaffold, version: 1 })
    const reimport = await runCli(['forms:import', exported, '--publish'], db.env)
    assert.equal(reimport.code, 0, reimport.output)

    const missing = await runCli(['forms:export', '999'], db.env)
    assert.equal(missing.code, 1)
    assert.include(missing.output, 'there is no form 999')
  })

  test('a bad file exits 1 with every problem at its path, and import stores nothing', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-forms-bad')
    cleanup(() => db.drop())
    assert.equal((await runCli(['migrate'], db.env)).code, 0)
    const bad = join(db.dataDir, 'malo.json')
    writeFileSync(
      bad,
      JSON.stringify({
        form: { pages: [{ name: 'A', layout: [['nombre', 'edad']] }] },
        fields: [
          { field_name: 'nombre', type: 'text', data: { validate: { required: 'si' } } },
          { field_name: 'edad', type: 'number', data: { limit: { min: 'diez' } } },
        ],
      })
    )
    const checked = await runCli(['forms:validate', bad], db.env)
    assert.equal(checked.code, 1)
    assert.include(checked.output, '2 problem(s)')
    assert.include(checked.output, '/jsonconfig/fields/0/data/validate/required: must be boolean')
    assert.include(checked.output, '/jsonconfig/fields/1/data/limit/min: must be number')

    const imported = await runCli(['forms:import', bad, '--publish'], db.env)
    assert.equal(imported.code, 1)
    assert.equal((await db.query<{ n: number }>('select count(*) as n from forms'))[0]!.n, 0)

    const notJson = join(db.dataDir, 'roto.json')
    writeFileSync(notJson, '{"form": ')
    const broken = await runCli(['forms:validate', notJson], db.env)
    assert.equal(broken.code, 1)
    assert.include(broken.output, 'is not valid JSON')
    const unknownFormat = await runCli(['forms:validate', bad, '--format', 'xml'], db.env)
    assert.equal(unknownFormat.code, 1)
    assert.include(unknownFormat.output, 'unknown format')
    const notAForm = join(db.dataDir, 'lista.json')
    writeFileSync(notAForm, '[1, 2]')
    const neither = await runCli(['forms:import', notAForm], db.env)
    assert.equal(neither.code, 1)
    assert.include(neither.output, 'Unknown form format')
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('--map reads custom component types as the mapping file says; a bad file exits 1 and stores nothing', async ({
    assert,
    cleanup,
  }) => {
    const db = childDatabase('cli-forms-map')
    cleanup(() => db.drop())
    assert.equal((await runCli(['migrate'], db.env)).code, 0)
    const dir = db.dataDir
    const formio = join(dir, 'custom.json')
    writeFileSync(
      formio,
      JSON.stringify({
        components: [
          { type: 'nombreCompuesto', key: 'titular', label: 'Titular' },
          { type: 'siNo', key: 'acepta', label: 'Acepta', input: true },
          { type: 'textfield', key: 'saludo', conditional: { show: true, when: 'titular.nombre', eq: 'Ana' } },
        ],
      })
    )
    const map = join(dir, 'map.json')
    writeFileSync(
      map,
      JSON.stringify({
        formio: {
          nombreCompuesto: {
            type: 'composite',
            components: [
              { type: 'textfield', key: 'nombre', label: 'Nombre' },
              { type: 'textfield', key: 'apellido', label: 'Apellido' },
            ],
          },
        },
      })
    )

    const help = await runCli(['forms:import', '--help'], db.env)
    assert.equal(help.code, 0, help.output)
    assert.include(help.output, '--map <file>')

    // The composite comes from the file; the yes/no by its shape; both are listed as mapped.
    const published = await runCli(['forms:import', formio, '--map', map, '--name', 'Con tipos', '--publish'], db.env)
    assert.equal(published.code, 0, published.output)
    assert.include(
      published.output,
      'mapped /components/0: the custom Form.io component "nombreCompuesto" is imported as "composite"'
    )
    assert.include(published.output, 'mapped /components/1: the custom Form.io component "siNo" is mapped by shape')
    assert.match(published.output, /published as version 1/)
    const rows = await db.query<{ id: number }>('select id from forms')
    const exported = await runCli(['forms:export', String(rows[0]!.id)], db.env)
    assert.equal(exported.code, 0, exported.output)
    const { jsonconfig } = JSON.parse(exported.output.slice(exported.output.indexOf('{')))
    const fields = Object.fromEntries(
      jsonconfig.fields.map((f: { field_name: string; type: string; data: Record<string, unknown> }) => [
        f.field_name,
        f,
      ])
    )
    assert.deepEqual(Object.keys(fields), ['titular_nombre', 'titular_apellido', 'acepta', 'saludo'])
    assert.equal(fields.acepta.type, 'radios')
    assert.equal(fields.saludo.data.show_with_formule, 'titular_nombre == "Ana"')

    // Without the file the composite is skipped, and the condition reading its part is reported.
    const without = await runCli(['forms:validate', formio], db.env)
    assert.include(
      without.output,
      'not imported /components/0: no equivalent for the Form.io component "nombreCompuesto"'
    )
    assert.include(without.output, 'not imported /components/2/conditional/when')

    const badTarget = join(dir, 'bad-map.json')
    writeFileSync(badTarget, JSON.stringify({ formio: { siNo: 'interruptor' } }))
    const refused = await runCli(['forms:import', formio, '--map', badTarget, '--publish'], db.env)
    assert.equal(refused.code, 1)
    assert.include(refused.output, `${badTarget}: "formio.siNo": "interruptor" is not a Form.io type`)
    const notJson = join(dir, 'roto-map.json')
    writeFileSync(notJson, '{"formio": ')
    const broken = await runCli(['forms:validate', formio, '--map', notJson], db.env)
    assert.equal(broken.code, 1)
    assert.include(broken.output, `${notJson} is not valid JSON`)
    assert.equal((await db.query<{ n: number }>('select count(*) as n from forms'))[0]!.n, 1)
  }).skip(...NOT_ABOUT_THE_DATABASE)
})
