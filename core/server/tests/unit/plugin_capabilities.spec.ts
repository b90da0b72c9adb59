import { test } from '@japa/runner'
import { CapabilityTable } from '#plugins/services/capabilities'

/** plugin-api capabilities: offered in register by one plugin, used by others while it is live. */
test.group('plugin capabilities', () => {
  test('offered under the provider’s name; handed to other plugins only while the provider is live', ({ assert }) => {
    const live = new Set(['documents', 'devices'])
    const table = new CapabilityTable((id) => live.has(id))
    let ready = false
    const documents = table.capabilitiesFor('documents', () => ready)
    const devices = table.capabilitiesFor('devices', () => ready)
    const ocr = { searchablePdf: async () => ({ error: 'failed' as const }) }
    documents.provide('ocr', ocr)
    assert.throws(() => documents.provide('ocr', ocr), /offered twice/)
    assert.throws(() => documents.provide('Bad Name', ocr), /invalid capability name/)
    ready = true
    assert.throws(() => documents.provide('late', ocr), /offered in register/)

    assert.strictEqual(devices.use('documents.ocr'), ocr)
    assert.isUndefined(devices.use('documents.nothing'))
    assert.isUndefined(documents.use('documents.ocr'), 'a plugin calls its own code directly')
    live.delete('documents')
    assert.isUndefined(devices.use('documents.ocr'), 'a provider that failed or was disabled offers nothing')
  })
})
