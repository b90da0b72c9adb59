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
import { basename, dirname, join, relative } from 'node:path'
import { test } from '@japa/runner'
import { NOT_ABOUT_THE_DATABASE, TRAMITA_BIN, runCli, startProcess } from '#tests/helpers/processes'
import { childDatabase, seedChildDatabase } from '#tests/helpers/child_database'
import { waitUntil } from '#tests/helpers/wait'

/**
 * `tramita documents:import` and `documents:export` (plugins/documents/server/cli) against a real
 * database. One database for the group (migrated and demo-seeded once: each CLI run boots the app);
 * each test works in its own owner's library or its own folder of it and counts only there.
 */

/** Writes files (relative path → content) under a new temporary folder and answers its path. */
function tree(files: Record<string, string | Buffer>, folders: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'tramita-docs-src-'))
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
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

test.group('tramita documents:import and documents:export', (group) => {
  const db = childDatabase('cli-docs')
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<{ n: number }>(sql, params))[0]!.n)
  const userId = async (username: string) =>
    Number((await db.query<{ id: number }>('select id from users where username = ?', [username]))[0]!.id)
  /** The id of a user's folder at a path of names from their root. */
  const folderId = async (owner: number, path: string[]) => {
    let parent: number | null = null
    for (const name of path) {
      const rows: { id: number }[] = await db.query<{ id: number }>(
        parent === null
          ? 'select id from documents_folders where name = ? and parent_id is null and creator_id = ?'
          : 'select id from documents_folders where name = ? and parent_id = ?',
        [name, parent ?? owner]
      )
      parent = Number(rows[0]!.id)
    }
    return parent!
  }
  const env = db.env

  group.setup(async () => {
    // Migrated and demo-seeded: a copy of the suite's template (child_database.ts).
    await seedChildDatabase(db)
    return () => db.drop()
  })

  test('import twice stores each file once, and a run cut short before a file resumes with it', async ({ assert }) => {
    const src = tree(SOURCE, ['vacío'])
    const admin = await userId('admin')

    // No --owner: the first superuser (the demo's admin); no --folder: their root.
    const first = await runCli(['documents:import', src], env)
    assert.equal(first.code, 0, first.output)
    assert.include(first.output, 'Importing 5 file(s)')
    assert.match(first.output, /\[\d\/5\] imported Año 2024\/Sub\/hondo\.txt/)
    assert.include(first.output, 'Done: 5 imported, 0 new version(s), 0 already imported, 0 refused, 0 skipped')

    const folders = await db.query<{ id: number; name: string; parent_id: number | null }>(
      'select id, name, parent_id from documents_folders where creator_id = ? order by id',
      [admin]
    )
    const byName = new Map(folders.map((f) => [f.name, f]))
    assert.sameMembers([...byName.keys()], ['Año 2024', 'Sub', 'vacío'])
    assert.isNull(byName.get('Año 2024')!.parent_id)
    assert.equal(byName.get('Sub')!.parent_id, byName.get('Año 2024')!.id)
    const files = await db.query<{ name: string; folder_id: number | null }>(
      'select name, folder_id from documents_files where owner_id = ? order by name',
      [admin]
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
    const mine = 'select file_id from documents_imports where owner_id = ?'
    assert.equal(await count(`select count(*) as n from documents_versions where file_id in (${mine})`, [admin]), 5)
    assert.equal(await count('select count(*) as n from documents_imports where owner_id = ?', [admin]), 5)
    assert.equal(await count(`select count(*) as n from documents_search where file_id in (${mine})`, [admin]), 5)

    const second = await runCli(['documents:import', src], env)
    assert.equal(second.code, 0, second.output)
    assert.include(second.output, 'Done: 0 imported, 0 new version(s), 5 already imported')
    assert.equal(await count('select count(*) as n from documents_files where owner_id = ?', [admin]), 5)
    assert.equal(await count('select count(*) as n from documents_folders where creator_id = ?', [admin]), 3)

    // A run killed before hondo.txt's transaction committed left neither its rows nor its record.
    const [hondo] = await db.query<{ id: number }>(
      "select id from documents_files where name = 'hondo.txt' and owner_id = ?",
      [admin]
    )
    for (const table of ['documents_imports', 'documents_search', 'documents_versions']) {
      await db.query(`delete from ${table} where file_id = ?`, [hondo!.id])
    }
    await db.query('delete from documents_files where id = ?', [hondo!.id])
    const resumed = await runCli(['documents:import', src], env)
    assert.equal(resumed.code, 0, resumed.output)
    assert.include(resumed.output, 'Done: 1 imported, 0 new version(s), 4 already imported')
    assert.equal(
      await count("select count(*) as n from documents_files where name = 'hondo.txt' and owner_id = ?", [admin]),
      1
    )
    assert.equal(await count('select count(*) as n from documents_files where owner_id = ?', [admin]), 5)
  })

  test('a changed file becomes a new version; a touched one stays; another folder is another import', async ({
    assert,
  }) => {
    const src = tree(SOURCE)
    const owner = await userId('supervisor')
    const first = await runCli(['documents:import', src, '--owner', 'supervisor', '--folder', 'Recibido/2024'], env)
    assert.equal(first.code, 0, first.output)
    assert.include(first.output, 'Done: 5 imported')
    const recibido = await folderId(owner, ['Recibido', '2024'])
    assert.equal(await count('select count(*) as n from documents_files where folder_id = ?', [recibido]), 2)

    const later = new Date(Date.now() + 60_000)
    utimesSync(join(src, 'informe.txt'), later, later)
    writeFileSync(join(src, 'Año 2024/notas.txt'), 'Primera nota, corregida\n')
    utimesSync(join(src, 'Año 2024/notas.txt'), later, later)
    const changed = await runCli(['documents:import', src, '--owner', 'SUPERVISOR', '--folder', 'Recibido/2024'], env)
    assert.equal(changed.code, 0, changed.output)
    assert.include(changed.output, 'new version 2 of Año 2024/notas.txt')
    assert.include(changed.output, 'Done: 0 imported, 1 new version(s), 4 already imported')
    const [notas] = await db.query<{ id: number; current_version: number; size: number }>(
      "select id, current_version, size from documents_files where name = 'notas.txt' and owner_id = ?",
      [owner]
    )
    assert.equal(Number(notas!.current_version), 2)
    assert.equal(Number(notas!.size), Buffer.byteLength('Primera nota, corregida\n'))
    assert.equal(await count('select count(*) as n from documents_versions where file_id = ?', [notas!.id]), 2)
    assert.equal(await count('select count(*) as n from documents_files where owner_id = ?', [owner]), 5)
  })

  test('an import killed midway and run again imports each file exactly once', async ({ assert, cleanup }) => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 300; i++) files[`lote ${i % 10}/doc-${String(i).padStart(3, '0')}.txt`] = `documento ${i}\n`
    const src = tree(files)
    const owner = await userId('teacher')
    const args = ['documents:import', src, '--owner', 'teacher', '--folder', 'Lotes']
    const inLotes = async () => {
      const lotes = await db.query<{ id: number }>(
        "select id from documents_folders where name = 'Lotes' and parent_id is null and creator_id = ?",
        [owner]
      )
      if (!lotes[0]) return 0
      return count(
        'select count(*) as n from documents_files where folder_id in (select id from documents_folders where parent_id = ?)',
        [lotes[0].id]
      )
    }

    const run = startProcess([TRAMITA_BIN, ...args], env)
    cleanup(async () => void (await run.stop('SIGKILL')))
    await waitUntil(
      () => run.output().includes('[20/300]'),
      120_000,
      () => `progress:\n${run.output()}`,
      20
    )
    await run.stop('SIGKILL')
    assert.notInclude(run.output(), 'Done:', 'the first run was cut short')
    const before = await inLotes()
    assert.isBelow(before, 300)

    const again = await runCli(args, env)
    assert.equal(again.code, 0, again.output)
    assert.include(again.output, `Done: ${300 - before} imported, 0 new version(s), ${before} already imported`)
    assert.equal(await inLotes(), 300)
    assert.equal(await count('select count(distinct name) as n from documents_files where owner_id = ?', [owner]), 300)
    assert.equal(await count('select count(*) as n from documents_imports where owner_id = ?', [owner]), 300)
    assert.equal(await count('select count(*) as n from documents_folders where creator_id = ?', [owner]), 11)
  })

  test('export writes the tree back byte for byte, the whole library or one folder of it', async ({ assert }) => {
    const src = tree(SOURCE, ['vacío'])
    assert.equal((await runCli(['documents:import', src, '--owner', 'student'], env)).code, 0)

    const base = mkdtempSync(join(tmpdir(), 'tramita-docs-out-'))
    const out = join(base, 'todo')
    const exported = await runCli(['documents:export', out, '--owner', 'student'], env)
    assert.equal(exported.code, 0, exported.output)
    assert.include(exported.output, 'Done: 5 file(s), 3 folder(s)')
    const expected = new Map(
      Object.entries(SOURCE).map(([path, content]) => [path.replace('\\', '_'), Buffer.from(content)])
    )
    assert.deepEqual(read(out), expected)
    assert.isTrue(statSync(join(out, 'vacío')).isDirectory())

    const part = join(base, 'parte')
    const one = await runCli(['documents:export', part, '--owner', 'student', '--folder', 'Año 2024'], env)
    assert.equal(one.code, 0, one.output)
    assert.deepEqual([...read(part).keys()].sort(), ['Sub/hondo.txt', 'datos.csv', 'notas.txt'])
  })

  test('export makes unsafe names safe, follows no link and writes nothing outside its folder', async ({ assert }) => {
    const src = tree(SOURCE)
    const admin = await userId('admin')
    assert.equal((await runCli(['documents:import', src, '--folder', 'Riesgo'], env)).code, 0)
    // Names no file system path should take, written straight into the tables.
    const riesgo = await folderId(admin, ['Riesgo'])
    const sub = await folderId(admin, ['Riesgo', 'Año 2024', 'Sub'])
    await db.query("update documents_files set name = '../../fuera.txt' where folder_id = ? and name = 'informe.txt'", [
      riesgo,
    ])
    await db.query("update documents_folders set name = '..' where id = ?", [sub])

    const base = mkdtempSync(join(tmpdir(), 'tramita-docs-out-'))
    const risky = join(base, 'risky', 'dentro')
    const safe = await runCli(['documents:export', risky, '--folder', 'Riesgo'], env)
    assert.equal(safe.code, 0, safe.output)
    assert.isFalse(existsSync(join(base, 'fuera.txt')))
    assert.isFalse(existsSync(join(base, 'risky', 'fuera.txt')))
    assert.isFalse(existsSync(join(base, 'risky', 'hondo.txt')))
    const written = read(risky)
    assert.equal(written.size, 5)
    for (const path of written.keys()) {
      assert.notInclude(path.split('/'), '..')
      assert.notInclude(path.split('/'), '.')
    }
    const byContent = (text: string) => [...written.entries()].find(([, bytes]) => bytes.equals(Buffer.from(text)))?.[0]
    assert.equal(byContent(SOURCE['informe.txt']), '__.._fuera.txt')
    const deep = byContent(SOURCE['Año 2024/Sub/hondo.txt'])!
    assert.equal(basename(deep), 'hondo.txt')
    assert.equal(dirname(dirname(deep)), 'Año 2024')
    assert.equal(basename(dirname(deep)), `folder-${sub}`)

    // A link inside the export folder is not followed.
    const elsewhere = mkdtempSync(join(tmpdir(), 'tramita-docs-elsewhere-'))
    const linked = join(base, 'linked')
    mkdirSync(linked)
    symlinkSync(elsewhere, join(linked, 'Año 2024'))
    const refused = await runCli(['documents:export', linked, '--folder', 'Riesgo'], env)
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'is not a folder (links are not followed)')
    assert.deepEqual(readdirSync(elsewhere), [])

    const missing = await runCli(['documents:export', join(base, 'nada'), '--folder', 'No existe'], env)
    assert.equal(missing.code, 1)
    assert.include(missing.output, 'admin has no folder No existe')
    assert.isFalse(existsSync(join(base, 'nada')))
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('a file the upload checks refuse is reported, exits 1 and is tried again next time', async ({ assert }) => {
    const src = tree({ 'bien.txt': 'correcto\n', 'virus.exe': Buffer.from('MZ\x90\x00 programa') })
    const owner = await userId('supervisor')
    const args = ['documents:import', src, '--owner', 'supervisor', '--folder', 'Revisar']
    const first = await runCli(args, env)
    assert.equal(first.code, 1, first.output)
    assert.match(first.output, /refused virus\.exe: /)
    assert.include(first.output, 'Done: 1 imported, 0 new version(s), 0 already imported, 1 refused')
    const again = await runCli(args, env)
    assert.equal(again.code, 1, again.output)
    assert.include(again.output, 'Done: 0 imported, 0 new version(s), 1 already imported, 1 refused')
    const revisar = await folderId(owner, ['Revisar'])
    const inRevisar = await db.query<{ name: string }>('select name from documents_files where folder_id = ?', [
      revisar,
    ])
    assert.deepEqual(
      inRevisar.map((f) => f.name),
      ['bien.txt']
    )
  })

  test('traversal in --folder, unknown owners, a missing folder, no folder: a clear failure, nothing stored', async ({
    assert,
  }) => {
    const src = tree({ 'bien.txt': 'correcto\n' })
    const totals = async () => [
      await count('select count(*) as n from documents_files'),
      await count('select count(*) as n from documents_folders'),
    ]
    const before = await totals()
    const traversal = await runCli(['documents:import', src, '--folder', '../fuera'], env)
    assert.equal(traversal.code, 1, traversal.output)
    assert.include(traversal.output, '--folder: ".." is not a folder name')
    const nobody = await runCli(['documents:import', src, '--owner', 'nadie'], env)
    assert.equal(nobody.code, 1, nobody.output)
    assert.include(nobody.output, 'there is no enabled user "nadie"')
    const noDir = await runCli(['documents:import', join(src, 'no-existe')], env)
    assert.equal(noDir.code, 1, noDir.output)
    assert.include(noDir.output, 'cannot read')
    const usage = await runCli(['documents:import'], env)
    assert.equal(usage.code, 1, usage.output)
    assert.include(usage.output, 'usage: tramita documents:import DIR')
    assert.deepEqual(await totals(), before)
  }).skip(...NOT_ABOUT_THE_DATABASE)
})
