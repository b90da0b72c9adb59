import { test } from '@japa/runner'
import { CodeError, codeProblem, renderCode } from '../src/form/codes.js'

test.group('codes (QR and barcodes)', () => {
  test('values a code can hold have no problem', async ({ assert }) => {
    assert.isNull(await codeProblem('qr', 'https://tramita.example/c/ABC-123'))
    assert.isNull(await codeProblem('barcode', 'ID-Ana'))
    assert.isNull(await codeProblem('barcode', '5901234123457', 'EAN13'))
    assert.isNull(await codeProblem('barcode', '12345', ''), 'an empty format is CODE128')
  })

  test('empty values, values a format cannot hold, unknown formats and oversized QR codes are problems', async ({
    assert,
  }) => {
    const reasons = async (...args: Parameters<typeof codeProblem>) => {
      const problem = await codeProblem(...args)
      assert.instanceOf(problem, CodeError, JSON.stringify(args))
      return problem!.reason
    }
    assert.equal(await reasons('qr', ''), 'empty')
    assert.equal(await reasons('barcode', ''), 'empty')
    assert.equal(await reasons('barcode', 'ABC', 'EAN13'), 'invalid')
    assert.equal(await reasons('barcode', '5901234123458', 'EAN13'), 'invalid', 'a wrong check digit')
    assert.equal(await reasons('barcode', '123', 'NOPE'), 'invalid')
    assert.equal(await reasons('qr', 'x'.repeat(4000)), 'invalid', 'more than a QR code holds')
    assert.equal(await reasons('pdf417' as 'qr', 'x'), 'invalid')
  })

  test('renderCode rejects a value it cannot draw with a CodeError, and logs it', async ({ assert }) => {
    const logged: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => logged.push(args)
    try {
      // No DOM is needed to refuse: the value is checked before any canvas is made.
      const error = await renderCode('barcode', 'ABC', 'EAN13').catch((e: unknown) => e)
      assert.instanceOf(error, CodeError)
      assert.equal((error as CodeError).reason, 'invalid')
    } finally {
      console.error = original
    }
    assert.lengthOf(logged, 1)
    assert.equal(logged[0]![0], 'code not generated')
  })
})
