import { test } from '@japa/runner'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { formDevicesModuleSource } from '@tramita/plugin-api/discover'

/** A plugin folder: its package.json exports and files. */
async function plugin(root: string, id: string, exports: Record<string, string>, files: Record<string, string>) {
  await mkdir(join(root, id), { recursive: true })
  await writeFile(join(root, id, 'package.json'), JSON.stringify({ name: id, type: 'module', exports }))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, id, path, '..'), { recursive: true })
    await writeFile(join(root, id, path), text)
  }
}

/** The generated module, written and imported as a bundle would. */
async function load(root: string, source: string) {
  const file = join(root, 'generated.ts')
  await writeFile(file, source)
  return (await import(pathToFileURL(file).href)) as { formDevices: null | (() => Promise<{ name: string }>) }
}

test.group('plugin form devices: virtual:tramita-form-devices', (group) => {
  let root: string
  group.each.setup(async () => {
    root = await mkdtemp(join(process.cwd(), 'tmp-form-devices-'))
    return () => rm(root, { recursive: true, force: true })
  })

  test('the first enabled plugin exporting ./form-devices, loaded lazily; a disabled one is not in it', async ({
    assert,
  }) => {
    const devices = (name: string) => ({ 'web/devices.ts': `export default { name: ${JSON.stringify(name)} }\n` })
    await plugin(root, 'plain', { '.': './index.ts' }, { 'index.ts': 'export default {}\n' })
    await plugin(root, 'scanners', { './form-devices': './web/devices.ts' }, devices('scanners'))
    await plugin(root, 'pads', { './form-devices': './web/devices.ts' }, devices('pads'))
    await plugin(root, 'off', { './form-devices': './web/devices.ts' }, devices('off'))

    const source = formDevicesModuleSource(root, ['plain', 'pads', 'scanners'])
    assert.notInclude(source, join(root, 'off'))
    assert.notInclude(source, join(root, 'scanners'))
    // A dynamic import: the plugin's code is a chunk of its own, not in the form's route.
    assert.match(source, /import\(/)
    assert.notMatch(source, /^import /m)
    const { formDevices } = await load(root, source)
    assert.isFunction(formDevices)
    assert.deepEqual(await formDevices!(), { name: 'pads' })
  })

  test('no enabled plugin with ./form-devices (devices disabled): null, so the dialogs show no device', async ({
    assert,
  }) => {
    await plugin(root, 'off', { './form-devices': './web/devices.ts' }, { 'web/devices.ts': 'export default {}\n' })
    await plugin(root, 'plain', { '.': './index.ts' }, { 'index.ts': 'export default {}\n' })
    for (const ids of [[], ['plain'], ['missing']]) {
      const source = formDevicesModuleSource(root, ids)
      assert.equal(source, 'export const formDevices = null\n')
      assert.isNull((await load(root, source)).formDevices)
    }
  })

  test('the repository: the devices plugin provides it, and without it nothing does', ({ assert }) => {
    const plugins = resolve(process.cwd(), '../../plugins')
    assert.include(
      formDevicesModuleSource(plugins, ['documents', 'actions', 'devices']),
      join(plugins, 'devices', 'web', 'form_devices', 'index.ts')
    )
    assert.equal(formDevicesModuleSource(plugins, ['documents', 'actions']), 'export const formDevices = null\n')
  })
})
