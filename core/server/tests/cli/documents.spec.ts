import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { test } from '@japa/runner'
import { TRAMITA_BIN, runCli, startProcess } from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'
import { waitUntil } from '#tests/helpers/wait'

/** `tramita documents:import` and `documents:export` (plugins/documents/server/cli) against a real database. */

/** Writes files (relative path → content) under a new temporary folder and answers its path. */
function tree(files: Record<string, string | Buffer>, folders: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'tramita-docs-src-'))
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

/** Every file under `root` as relative path → bytes. */
function read(root: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>()
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) visit(path)
      else found.set(relative(root, path), readFileSync(path))
    }
  }
  visit(root)
  return found
}

const SOURCE = {
  'informe.txt': 'Informe anual\n',
  'Año 2024/datos.csv': 'mes,importe\nenero,12\n',
  'Año 2024/notas.txt': 'Primera nota\n',
  'Año 2024/Sub/hondo.txt': 'Tres niveles abajo\n',
  'a\\b.txt': 'Una barra invertida en el nombre\n',
}

async function prepared(label: string) {
  const db = childDatabase(label)
  assertOk(await runCli(['migrate'], db.env))
  assertOk(await runCli(['seed', '--demo'], db.env))
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<{ n: number }>(sql, params))[0]!.n)
  return { db, count }
}

function assertOk(run: { code: number | null; output: string }) {
  if (run.code !== 0) throw new Error(`the command failed (${run.code}):\n${run.output}`)
}

test.group('tramita documents:import and documents:export', () => {
  test('import twice stores each file once; a run cut short resumes; a changed file becomes a version', async ({
    assert,
    cleanup,
  }) => {
    const { db, count } = await prepared('cli-docs-import')
    cleanup(() => db.drop())
    const src = tree(SOURCE, ['vacío'])

    const first = await runCli(['documents:import', src], db.env)
    assert.equal(first.code, 0, first.output)
    assert.include(first.output, 'Importing 5 file(s)')
    assert.match(first.output, /\[\d\/5\] imported Año 2024\/Sub\/hondo\.txt/)
    assert.include(first.output, 'Done: 5 imported, 0 new version(s), 0 already imported, 0 refused, 0 skipped')

    // Folders as in the tree, owned by the first superuser (the demo's admin).
    const [admin] = await db.query<{ id: number }>("select id from users where username = 'admin'")
    const folders = await db.query<{ id: number; name: string; parent_id: number | null; creator_id: number }>(
      'select id, name, parent_id, creator_id from documents_folders order by id'
    )
    const byName = new Map(folders.map((f) => [f.name, f]))
    assert.sameMembers([...byName.keys()], ['Año 2024', 'Sub', 'vacío'])
    assert.isNull(byName.get('Año 2024')!.parent_id)
    assert.equal(byName.get('Sub')!.parent_id, byName.get('Año 2024')!.id)
    assert.isTrue(folders.every((f) => Number(f.creator_id) === Number(admin!.id)))
    const files = await db.query<{ name: string; folder_id: number | null; owner_id: number; current_version: number }>(
      'select name, folder_id, owner_id, current_version from documents_files order by name'
    )
    // The backslash cannot be in a library name: made safe.
    assert.deepEqual(
      files.map((f) => [f.name, f.folder_id === null ? null : folders.find((x) => x.id === f.folder_id)!.name]),
      [
        ['a_b.txt', null],
        ['datos.csv', 'Año 2024'],
        ['hondo.txt', 'Sub'],
        ['informe.txt', null],
        ['notas.txt', 'Año 2024'],
      ]
    )
    assert.isTrue(files.every((f) => Number(f.owner_id) === Number(admin!.id)))
    assert.equal(await count('select count(*) as n from documents_versions'), 5)
    assert.equal(await count('select count(*) as n from documents_imports'), 5)
    assert.equal(await count('select count(*) as n from documents_search'), 5)

    const second = await runCli(['documents:import', src], db.env)
    assert.equal(second.code, 0, second.output)
    assert.include(second.output, 'Done: 0 imported, 0 new version(s), 5 already imported')
    assert.equal(await count('select count(*) as n from documents_files'), 5)
    assert.equal(await count('select count(*) as n from documents_folders'), 3)

    // A run killed before hondo.txt's transaction committed left neither its rows nor its record.
    const [hondo] = await db.query<{ id: number }>("select id from documents_files where name = 'hondo.txt'")
    await db.query('delete from documents_imports where file_id = ?', [hondo!.id])
    await db.query('delete from documents_search where file_id = ?', [hondo!.id])
    await db.query('delete from documents_versions where file_id = ?', [hondo!.id])
    await db.query('delete from documents_files where id = ?', [hondo!.id])
    const resumed = await runCli(['documents:import', src], db.env)
    assert.equal(resumed.code, 0, resumed.output)
    assert.include(resumed.output, 'Done: 1 imported, 0 new version(s), 4 already imported')
    assert.equal(await count("select count(*) as n from documents_files where name = 'hondo.txt'"), 1)
    assert.equal(await count('select count(*) as n from documents_files'), 5)

    // Touched but the same bytes: nothing new. Changed bytes: the next version of the same file.
    const later = new Date(Date.now() + 60_000)
    utimesSync(join(src, 'informe.txt'), later, later)
    writeFileSync(join(src, 'Año 2024/notas.txt'), 'Primera nota, corregida\n')
    utimesSync(join(src, 'Año 2024/notas.txt'), later, later)
    const changed = await runCli(['documents:import', src], db.env)
    assert.equal(changed.code, 0, changed.output)
    assert.include(changed.output, 'new version 2 of Año 2024/notas.txt')
    assert.include(changed.output, 'Done: 0 imported, 1 new version(s), 4 already imported')
    const [notas] = await db.query<{ current_version: number; size: number }>(
      "select current_version, size from documents_files where name = 'notas.txt'"
    )
    assert.equal(Number(notas!.current_version), 2)
    assert.equal(Number(notas!.size), Buffer.byteLength('Primera nota, corregida\n'))
    assert.equal(await count('select count(*) as n from documents_versions'), 6)

    // Into another folder of the library (made on the way) for another owner: a separate import.
    const teacher = await runCli(['documents:import', src, '--folder', 'Recibido/2024', '--owner', 'teacher'], db.env)
    assert.equal(teacher.code, 0, teacher.output)
    assert.include(teacher.output, 'Done: 5 imported')
    const [teacherId] = await db.query<{ id: number }>("select id from users where username = 'teacher'")
    assert.equal(await count('select count(*) as n from documents_files where owner_id = ?', [teacherId!.id]), 5)
  })

  test('an import killed midway and run again imports each file exactly once', async ({ assert, cleanup }) => {
    const { db, count } = await prepared('cli-docs-kill')
    cleanup(() => db.drop())
    const files: Record<string, string> = {}
    for (let i = 0; i < 300; i++) files[`lote ${i % 10}/doc-${String(i).padStart(3, '0')}.txt`] = `documento ${i}\n`
    const src = tree(files)

    const run = startProcess([TRAMITA_BIN, 'documents:import', src], db.env)
    cleanup(async () => void (await run.stop('SIGKILL')))
    await waitUntil(
      () => run.output().includes('[20/300]'),
      120_000,
      () => `progress:\n${run.output()}`,
      20
    )
    await run.stop('SIGKILL')
    assert.notInclude(run.output(), 'Done:', 'the first run was cut short')
    const before = await count('select count(*) as n from documents_files')
    assert.isBelow(before, 300)

    const again = await runCli(['documents:import', src], db.env)
    assert.equal(again.code, 0, again.output)
    assert.include(again.output, `Done: ${300 - before} imported, 0 new version(s), ${before} already imported`)
    assert.equal(await count('select count(*) as n from documents_files'), 300)
    assert.equal(await count('select count(distinct name) as n from documents_files'), 300)
    assert.equal(await count('select count(*) as n from documents_imports'), 300)
    assert.equal(await count('select count(*) as n from documents_folders'), 10)
  })

  test('export writes the tree back byte for byte, with safe names and nothing outside the folder', async ({
    assert,
    cleanup,
  }) => {
    const { db } = await prepared('cli-docs-export')
    cleanup(() => db.drop())
    const src = tree(SOURCE, ['vacío'])
    assertOk(await runCli(['documents:import', src], db.env))

    const base = mkdtempSync(join(tmpdir(), 'tramita-docs-out-'))
    const out = join(base, 'todo')
    const exported = await runCli(['documents:export', out], db.env)
    assert.equal(exported.code, 0, exported.output)
    assert.include(exported.output, 'Done: 5 file(s), 3 folder(s)')
    const expected = new Map(
      Object.entries(SOURCE).map(([path, content]) => [path.replace('\\', '_'), Buffer.from(content)])
    )
    assert.deepEqual(read(out), expected)
    assert.isTrue(statSync(join(out, 'vacío')).isDirectory())

    // One folder of the library.
    const part = join(base, 'parte')
    assertOk(await runCli(['documents:export', part, '--folder', 'Año 2024'], db.env))
    assert.deepEqual([...read(part).keys()].sort(), ['Sub/hondo.txt', 'datos.csv', 'notas.txt'])

    // Names no file system path should take (written straight into the tables): made safe, inside.
    await db.query("update documents_files set name = '../../fuera.txt' where name = 'informe.txt'")
    await db.query("update documents_folders set name = '..' where name = 'Sub'")
    const risky = join(base, 'risky', 'dentro')
    const safe = await runCli(['documents:export', risky], db.env)
    assert.equal(safe.code, 0, safe.output)
    assert.isFalse(existsSync(join(base, 'fuera.txt')))
    assert.isFalse(existsSync(join(base, 'risky', 'fuera.txt')))
    assert.isFalse(existsSync(join(base, 'hondo.txt')))
    const written = read(risky)
    assert.equal(written.size, 5)
    for (const path of written.keys()) assert.notInclude(path.split('/'), '..')
    assert.deepEqual(
      [...written.entries()].find(([, bytes]) => bytes.equals(Buffer.from(SOURCE['informe.txt'])))?.[0],
      '__.._fuera.txt'
    )
    assert.equal(written.get('Año 2024/_/hondo.txt')?.toString(), SOURCE['Año 2024/Sub/hondo.txt'])

    // A link inside the export folder is not followed.
    const elsewhere = mkdtempSync(join(tmpdir(), 'tramita-docs-elsewhere-'))
    const linked = join(base, 'linked')
    mkdirSync(linked)
    symlinkSync(elsewhere, join(linked, 'Año 2024'))
    const refused = await runCli(['documents:export', linked], db.env)
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'is not a folder (links are not followed)')
    assert.deepEqual(readdirSync(elsewhere), [])

    const missing = await runCli(['documents:export', join(base, 'nada'), '--folder', 'No existe'], db.env)
    assert.equal(missing.code, 1)
    assert.include(missing.output, 'admin has no folder No existe')
  })

  test('refused files, traversal in --folder and unknown owners: a clear failure, nothing stored', async ({
    assert,
    cleanup,
  }) => {
    const { db, count } = await prepared('cli-docs-refusals')
    cleanup(() => db.drop())
    const src = tree({ 'bien.txt': 'correcto\n', 'virus.exe': Buffer.from('MZ\x90\x00 programa') })

    const first = await runCli(['documents:import', src], db.env)
    assert.equal(first.code, 1, first.output)
    assert.match(first.output, /refused virus\.exe: /)
    assert.include(first.output, 'Done: 1 imported, 0 new version(s), 0 already imported, 1 refused')
    const again = await runCli(['documents:import', src], db.env)
    assert.equal(again.code, 1, again.output)
    assert.include(again.output, 'Done: 0 imported, 0 new version(s), 1 already imported, 1 refused')
    assert.equal(await count('select count(*) as n from documents_files'), 1)
    assert.equal(await count('select count(*) as n from documents_imports'), 1)

    const traversal = await runCli(['documents:import', src, '--folder', '../fuera'], db.env)
    assert.equal(traversal.code, 1, traversal.output)
    assert.include(traversal.output, '--folder: ".." is not a folder name')
    const nobody = await runCli(['documents:import', src, '--owner', 'nadie'], db.env)
    assert.equal(nobody.code, 1, nobody.output)
    assert.include(nobody.output, 'there is no enabled user "nadie"')
    const noDir = await runCli(['documents:import', join(src, 'no-existe')], db.env)
    assert.equal(noDir.code, 1, noDir.output)
    assert.include(noDir.output, 'cannot read')
    const usage = await runCli(['documents:import'], db.env)
    assert.equal(usage.code, 1, usage.output)
    assert.include(usage.output, 'usage: tramita documents:import DIR')
    assert.equal(await count('select count(*) as n from documents_files'), 1)
    assert.equal(await count('select count(*) as n from documents_folders'), 0)
  })
})
