import { test } from '@japa/runner'
import {
  addPage,
  addRow,
  deletePage,
  deleteRow,
  editPage,
  findItem,
  movePage,
  renamePage,
  setPageSection,
  setPageStyle,
  setPageValue,
  moveRow,
  outline,
  pageItemNames,
  setValue,
  validateDocument,
  type DesignDocument,
} from '../src/model/index.js'
import { coreRegistry } from '@tramita/contract'
import { layouts, sampleDocument } from './model_fixture.js'

const pageNames = (doc: DesignDocument) => doc.jsonconfig.form.pages.map((page) => page.name)
const startPage = (doc: DesignDocument) => (doc.jsonconfig.validations as any).actions[0].start_page.page

test.group('designer model: pages', () => {
  test('a page is added at the end or at a place; actions starting by index follow', ({ assert }) => {
    const doc = sampleDocument()
    const atEnd = addPage('Cierre')(doc)
    assert.deepEqual(pageNames(atEnd), ['Datos', 'Detalle', 'Ayuda', 'Cierre'])
    assert.deepEqual(atEnd.jsonconfig.form.pages[3], { name: 'Cierre', layout: [] })
    assert.equal(startPage(atEnd), 1)
    const first = addPage('Portada', 0)(doc)
    assert.deepEqual(pageNames(first), ['Portada', 'Datos', 'Detalle', 'Ayuda'])
    assert.equal(startPage(first), 2, 'the action still starts on Detalle')
    assert.deepEqual(validateDocument(first), [])
    assert.throws(() => addPage('  '), /needs a name/)
    assert.throws(() => addPage('X', 9)(doc), /No page position/)
  })

  test('renaming a page: actions that start on it by name follow', ({ assert }) => {
    const doc = setValue('/jsonconfig/validations/actions/0/start_page/page', 'Detalle')(sampleDocument())
    const renamed = renamePage(1, 'Motivos')(doc)
    assert.deepEqual(pageNames(renamed), ['Datos', 'Motivos', 'Ayuda'])
    assert.equal(startPage(renamed), 'Motivos')
    assert.deepEqual(validateDocument(renamed), [])
    assert.throws(() => renamePage(7, 'X')(doc), /No page 7/)
    assert.throws(() => renamePage(0, ''), /needs a name/)
  })

  test('pages are reordered; an action starting by index keeps its page', ({ assert }) => {
    const doc = sampleDocument()
    const moved = movePage(1, 0)(doc)
    assert.deepEqual(pageNames(moved), ['Detalle', 'Datos', 'Ayuda'])
    assert.equal(startPage(moved), 0)
    const last = movePage(0, 2)(doc)
    assert.deepEqual(pageNames(last), ['Detalle', 'Ayuda', 'Datos'])
    assert.equal(startPage(last), 0)
    assert.strictEqual(movePage(1, 1)(doc), doc, 'a page moved onto itself changes nothing')
    assert.throws(() => movePage(0, 3)(doc), /No page 3/)
  })

  test('deleting a page keeps its items on no page unless asked to delete them too', ({ assert }) => {
    const doc = sampleDocument()
    assert.deepEqual(pageItemNames(doc, 1), ['motivo', 'hijos', 'hijo_nombre'])
    const kept = deletePage(1)(doc)
    assert.deepEqual(pageNames(kept), ['Datos', 'Ayuda'])
    const unplaced = outline(kept, coreRegistry()).unplaced.map((item) => item.name)
    for (const name of ['motivo', 'hijos', 'hijo_nombre']) {
      assert.isDefined(findItem(kept.jsonconfig, name))
      assert.include(unplaced, name, 'listed on no page, to be dragged back')
    }
    assert.equal(startPage(kept), 'Detalle', 'an action starting on it is flagged either way')
    assert.throws(() => pageItemNames(doc, 5), /No page 5/)
  })

  test('deleting a page with its items; the last page stays; a reference to it is flagged', ({ assert }) => {
    const doc = sampleDocument()
    const without = deletePage(1, 'delete')(doc)
    assert.deepEqual(pageNames(without), ['Datos', 'Ayuda'])
    for (const name of ['motivo', 'hijos', 'hijo_nombre']) assert.isUndefined(findItem(without.jsonconfig, name))
    assert.isDefined(findItem(without.jsonconfig, 'nombre'))
    // The action started on the deleted page: it now names it, and the validation says so.
    assert.equal(startPage(without), 'Detalle')
    assert.deepInclude(validateDocument(without), {
      path: '/jsonconfig/validations/actions/0/start_page/page',
      message: 'no page "Detalle"',
    })
    const shifted = deletePage(0)(doc)
    assert.equal(startPage(shifted), 0, 'Detalle is now the first page')
    const single = deletePage(1)(deletePage(1)(doc))
    assert.throws(() => deletePage(0)(single), /at least one page/)
  })

  test('a page marked as a section gets a unique section id from its name; unmarking keeps it', ({ assert }) => {
    const doc = sampleDocument()
    const section = setPageSection(1, true)(doc)
    assert.isTrue(section.jsonconfig.form.pages[1]!.section)
    assert.equal(section.jsonconfig.form.pages[1]!.section_id, 'detalle')
    const renamed = setPageSection(0, true)(setPageValue(0, '/name', 'Ayuda á')(section))
    assert.equal(renamed.jsonconfig.form.pages[0]!.section_id, 'ayuda_a')
    const clash = setPageSection(0, true)(setPageValue(0, '/name', 'Ayuda')(doc))
    assert.equal(clash.jsonconfig.form.pages[0]!.section_id, 'ayuda_2', 'ayuda is taken by the third page')
    const given = setPageSection(1, true, 'mas')(doc)
    assert.equal(given.jsonconfig.form.pages[1]!.section_id, 'mas')
    const unmarked = setPageSection(2, false)(doc)
    assert.isFalse(unmarked.jsonconfig.form.pages[2]!.section)
    assert.equal(unmarked.jsonconfig.form.pages[2]!.section_id, 'ayuda')
    assert.deepEqual(validateDocument(section), [])
  })

  test('page style keys are set by path, creating what a sparse page lacks, and removed', ({ assert }) => {
    const doc = sampleDocument()
    const styled = setPageStyle(
      0,
      ['responsive', 'mobile'],
      95
    )(setPageStyle(0, '/page_style/background', '#fafafa')(doc))
    assert.deepEqual(styled.jsonconfig.form.pages[0]!.style, {
      page_style: { background: '#fafafa' },
      responsive: { mobile: 95 },
    })
    assert.deepEqual(validateDocument(styled), [])
    const cleared = setPageStyle(0, '/responsive/mobile', undefined)(styled)
    assert.deepEqual(cleared.jsonconfig.form.pages[0]!.style, { page_style: { background: '#fafafa' }, responsive: {} })
    const wrong = setPageStyle(0, '/type_page', 'diagonal')(doc)
    assert.deepEqual(
      validateDocument(wrong).map((p) => p.path),
      ['/jsonconfig/form/pages/0/style/type_page']
    )
    assert.strictEqual(doc.jsonconfig.form.pages[0]!.style, undefined, 'the original is unchanged')
  })

  test('the page panel edits: a rename and the section mark go through their commands', ({ assert }) => {
    const doc = setValue('/jsonconfig/validations/actions/0/start_page/page', 'Detalle')(sampleDocument())
    const renamed = editPage(1, ['name'], 'Motivos')(doc)
    assert.equal(renamed.jsonconfig.form.pages[1]!.name, 'Motivos')
    assert.equal(startPage(renamed), 'Motivos', 'the action follows the rename')
    assert.throws(() => editPage(1, ['name'], undefined), /needs a name/)
    assert.throws(() => editPage(1, ['name'], ' ')(doc), /needs a name/)
    const section = editPage(1, '/section', true)(doc)
    assert.equal(section.jsonconfig.form.pages[1]!.section_id, 'detalle', 'a section gets an id')
    assert.isFalse(editPage(1, ['section'], undefined)(section).jsonconfig.form.pages[1]!.section)
    const styled = editPage(0, ['style', 'page_style', 'opacity'], 0.5)(editPage(0, ['style_from_body'], false)(doc))
    assert.deepInclude(styled.jsonconfig.form.pages[0]!, {
      style_from_body: false,
      style: { page_style: { opacity: 0.5 } },
    })
    const navbar = editPage(0, ['app_info', 'navbar', 'enable'], true)(doc)
    assert.deepEqual(navbar.jsonconfig.form.pages[0]!.app_info, { navbar: { enable: true } })
    assert.throws(() => editPage(0, ['layout'], [])(doc), /on the canvas/)
  })

  test('rows: an empty row is a drop zone; rows move; a deleted row takes its items', ({ assert }) => {
    const doc = sampleDocument()
    const added = addRow(0, 1)(doc)
    assert.deepEqual(layouts(added)[0], [['titulo'], [], ['nombre', 'cedula'], ['jefe']])
    assert.deepEqual(layouts(addRow(0)(doc))[0], [['titulo'], ['nombre', 'cedula'], ['jefe'], []])
    const moved = moveRow(0, 2, 0)(doc)
    assert.deepEqual(layouts(moved)[0], [['jefe'], ['titulo'], ['nombre', 'cedula']])
    const deleted = deleteRow(0, 1)(doc)
    assert.deepEqual(layouts(deleted)[0], [['titulo'], ['jefe']])
    assert.isUndefined(findItem(deleted.jsonconfig, 'nombre'))
    assert.deepEqual((deleted.process as any).external_consultation.select_show_info, [])
    assert.throws(() => addRow(0, 9)(doc), /No row position/)
    assert.throws(() => deleteRow(0, 9)(doc), /No row 9/)
  })
})
