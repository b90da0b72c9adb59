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
})
