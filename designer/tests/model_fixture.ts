/**
 * A small form for the model's tests: two pages and a section page, fields and elements, a set, an
 * autocomplete rule, an action starting on a page by index, and a process naming fields.
 */
import { openDocument, type DesignDocument } from '../src/model/index.js'

export const PROCESS = {
  label: 'Solicitud',
  states: [
    { id: 'init', label: 'Iniciado' },
    { id: 'end', label: 'Finalizado' },
  ],
  start: { step: 'revision' },
  steps: [{ id: 'revision', label: 'Revisión', assign: { type: 'field', field: 'jefe' }, next: { step: null } }],
  external_consultation: {
    enable: true,
    select_restrinct_consult: 'cedula',
    label_restrinct_consult: 'Cédula',
    select_show_info: ['nombre', 'cedula'],
  },
}

export function sampleDocument(): DesignDocument {
  return openDocument({
    name: 'Solicitud',
    jsonconfig: {
      form: {
        pages: [
          { name: 'Datos', layout: [['titulo'], ['nombre', 'cedula'], ['jefe']] },
          { name: 'Detalle', layout: [['motivo'], [], ['hijos', 'hijo_nombre']] },
          { name: 'Ayuda', section: true, section_id: 'ayuda', layout: [['nota']] },
        ],
      },
      validations: {
        autocomplete: [{ id_field: 'cedula', action: 'value', origin: 'formula', query: { condition: '' } }],
        actions: [{ name: 'ir', start_page: { active: true, page: 1 } }],
      },
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, width: 6 } },
        { field_name: 'cedula', type: 'number', data: { label: { value: 'Cédula' } } },
        { field_name: 'jefe', type: 'users', data: { label: { value: 'Jefe' } } },
        { field_name: 'motivo', type: 'textarea', data: { label: { value: 'Motivo' } } },
        { field_name: 'hijos', type: 'number', data: { label: { value: 'Hijos' } } },
        { field_name: 'hijo_nombre', type: 'text', isSet: true, set: 'hijos', data: {} },
      ],
      elements: [
        { field_name: 'titulo', type: 'text', data: { value: '## Solicitud' } },
        { field_name: 'nota', type: 'text', data: { value: 'Ayuda' } },
      ],
    },
    process: PROCESS,
  })
}

/** The layouts of a document, page by page. */
export const layouts = (doc: DesignDocument) => doc.jsonconfig.form.pages.map((page) => page.layout)
