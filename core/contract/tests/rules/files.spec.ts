import { test } from '@japa/runner'
import {
  ACTIVE_CONTENT_EXTENSIONS,
  BLOCKED_EXTENSIONS,
  canAddFile,
  checkFileUpload,
  fileExtension,
  fileInputMultiple,
  isImageMime,
  normalizeExtensions,
  type FileUploadCheck,
  type FileUploadRules,
} from '../../src/rules/index.js'

test.group('fileExtension', () => {
  const rows: [name: string, expected: string][] = [
    ['report.PDF', 'pdf'],
    ['archive.tar.gz', 'gz'],
    ['README', ''],
    ['.exe', 'exe'],
    ['virus.exe.', 'exe'],
    ['virus.exe . ', 'exe'],
    ['C:\\fakepath\\notes.docx', 'docx'],
    ['folder.v2/file', ''],
    ['', ''],
  ]
  for (const [name, expected] of rows) {
    test(`${JSON.stringify(name)} → ${JSON.stringify(expected)}`, ({ assert }) => {
      assert.strictEqual(fileExtension(name), expected)
    })
  }

  test('allowlists accept dots, any case, commas and blanks', ({ assert }) => {
    assert.deepEqual(normalizeExtensions(['.PDF', 'docx', ' .Png ', '', 'jpg, jpeg']), [
      'pdf',
      'docx',
      'png',
      'jpg',
      'jpeg',
    ])
    assert.deepEqual(normalizeExtensions(undefined), [])
  })
})

test.group('checkFileUpload', () => {
  const any: FileUploadRules = { limit: -1, count: 0 }
  const rows: [file: { name: string; mime?: string }, FileUploadRules, expected: FileUploadCheck][] = [
    [{ name: 'a.pdf' }, any, { ok: true }],
    ...BLOCKED_EXTENSIONS.map((ext): [{ name: string }, FileUploadRules, FileUploadCheck] => [
      { name: `setup.${ext.toUpperCase()}` },
      any,
      { ok: false, reason: 'blocked_extension' },
    ]),
    [{ name: 'a.exe' }, { ...any, allowed: ['exe'] }, { ok: false, reason: 'blocked_extension' }],
    [{ name: 'a.exe.' }, any, { ok: false, reason: 'blocked_extension' }],
    [{ name: 'a.pdf' }, { ...any, allowed: ['.PDF'] }, { ok: true }],
    [{ name: 'a.PDF' }, { ...any, allowed: ['pdf', 'docx'] }, { ok: true }],
    [{ name: 'a.pdf' }, { ...any, allowed: ['docx'] }, { ok: false, reason: 'extension_not_allowed' }],
    [{ name: 'noext' }, { ...any, allowed: ['pdf'] }, { ok: false, reason: 'extension_not_allowed' }],
    [{ name: 'noext' }, any, { ok: true }],
    [{ name: 'a.pdf' }, { ...any, allowed: [] }, { ok: true }],
    [{ name: 'a.pdf' }, { limit: 2, count: 2 }, { ok: false, reason: 'limit_reached' }],
    [{ name: 'a.pdf' }, { limit: 2, count: 1 }, { ok: true }],
    [{ name: 'a.pdf' }, { limit: -1, count: 999 }, { ok: true }],
    [{ name: 'a.pdf' }, { limit: 0, count: 0 }, { ok: false, reason: 'limit_reached' }],
    [{ name: 'a.txt' }, { allowed: ['pdf'], limit: 1, count: 1 }, { ok: false, reason: 'extension_not_allowed' }],
    [{ name: 'p.png', mime: 'image/png' }, { ...any, imagesOnly: true }, { ok: true }],
    [
      { name: 'p.png', mime: 'application/pdf' },
      { ...any, imagesOnly: true },
      { ok: false, reason: 'not_an_image' },
    ],
    [{ name: 'p.png' }, { ...any, imagesOnly: true }, { ok: false, reason: 'not_an_image' }],
    [
      { name: 'p.png', mime: 'image/png' },
      { limit: 1, count: 1, imagesOnly: true },
      { ok: false, reason: 'limit_reached' },
    ],
    [
      { name: 'p.iso', mime: 'image/png' },
      { ...any, imagesOnly: true },
      { ok: false, reason: 'blocked_extension' },
    ],
    [{ name: 'p.pdf', mime: 'application/pdf' }, any, { ok: true }],
    // Active content: refused unless the field allows it, and never past the blocklist or the allowlist.
    ...ACTIVE_CONTENT_EXTENSIONS.map((ext): [{ name: string }, FileUploadRules, FileUploadCheck] => [
      { name: `page.${ext.toUpperCase()}` },
      any,
      { ok: false, reason: 'active_content' },
    ]),
    [{ name: 'page.html' }, { ...any, allowed: ['html'] }, { ok: false, reason: 'active_content' }],
    [{ name: 'page.html' }, { ...any, allowActiveContent: true }, { ok: true }],
    [
      { name: 'deploy.ps1' },
      { ...any, allowActiveContent: true, allowed: ['sh'] },
      { ok: false, reason: 'extension_not_allowed' },
    ],
    [{ name: 'a.bat' }, { ...any, allowActiveContent: true }, { ok: false, reason: 'blocked_extension' }],
    [{ name: 'notes.txt' }, any, { ok: true }],
  ]
  for (const [file, rules, expected] of rows) {
    test(`${JSON.stringify(file)} with ${JSON.stringify(rules)}`, ({ assert }) => {
      assert.deepEqual(checkFileUpload(file, rules), expected)
    })
  }
})

test.group('file input multiple, add button, image MIME', () => {
  const multiple: [limit: number, expected: boolean][] = [
    [-1, true],
    [-5, true],
    [0, false],
    [1, false],
    [2, true],
    [10, true],
  ]
  for (const [limit, expected] of multiple) {
    test(`fileInputMultiple(${limit}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(fileInputMultiple(limit), expected)
    })
  }

  const add: [count: number, limit: number, expected: boolean][] = [
    [0, 1, true],
    [1, 1, false],
    [2, 3, true],
    [3, 3, false],
    [5, -1, true],
    [0, 0, false],
  ]
  for (const [count, limit, expected] of add) {
    test(`canAddFile(${count}, ${limit}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(canAddFile(count, limit), expected)
    })
  }

  const mimes: [mime: string | undefined, expected: boolean][] = [
    ['image/png', true],
    ['IMAGE/JPEG', true],
    ['image/svg+xml', true],
    ['image/', false],
    ['application/pdf', false],
    ['text/image/png', false],
    ['', false],
    [undefined, false],
  ]
  for (const [mime, expected] of mimes) {
    test(`isImageMime(${JSON.stringify(mime)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(isImageMime(mime), expected)
    })
  }
})
