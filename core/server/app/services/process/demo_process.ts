import { readFile } from 'node:fs/promises'
import db from '@adonisjs/lucid/services/db'
import { publishForm } from './forms.js'

/** The permit-request template shipped in templates/forms. */
const TEMPLATE = new URL('../../../../../templates/forms/solicitud-permiso.json', import.meta.url)

/**
 * The demo's process (`tramita seed --demo`): an employee asks for a permit, the Secretaría area
 * reviews it, the immediate superior named in the form (never the applicant nor the reviewer: four-eyes)
 * approves or rejects it, and the applicant can
 * follow it from the public consultation page with its code and e-mail.
 */
export async function seedDemoProcess(ownerId: number) {
  const jsonconfig = JSON.parse(await readFile(TEMPLATE, 'utf8')) as unknown
  const area = await db.from('areas').where('name', 'Secretaría').first()
  const process = {
    label: 'Solicitud de permiso',
    color: '#1C1066',
    states: [
      { id: 'init', label: 'Iniciado', color: '#7f82ff' },
      { id: 'revision', label: 'En revisión', color: '#F9A825' },
      { id: 'por_aprobar', label: 'Por aprobar', color: '#1565C0' },
      { id: 'aprobado', label: 'Aprobado', color: '#2E7D32' },
      { id: 'rechazado', label: 'Rechazado', color: '#C62828' },
      { id: 'end', label: 'Finalizado', color: '#1C1066' },
    ],
    start: { step: 'revision' },
    steps: [
      {
        id: 'revision',
        label: 'Revisión de soportes',
        kind: 'fill',
        assign: { type: 'area', id: area.id },
        state: 'revision',
        next: { step: 'aprobacion' },
      },
      {
        id: 'aprobacion',
        label: 'Aprobación del jefe inmediato',
        kind: 'approve',
        assign: { type: 'field', field: 'jefe_inmediato' },
        // Four-eyes (the default for approvals, said here for whoever copies this): the applicant may not
        // name themselves, and neither they nor the Secretaría reviewer may approve.
        four_eyes: true,
        state: 'por_aprobar',
        decisions: [
          { id: 'aprobar', label: 'Aprobar', color: '#2E7D32', next: { step: null, state: 'aprobado' } },
          { id: 'rechazar', label: 'Rechazar', color: '#C62828', next: { step: null, state: 'rechazado' } },
        ],
      },
    ],
    external_consultation: {
      enable: true,
      select_restrinct_consult: 'correo_contacto',
      label_restrinct_consult: 'Correo electrónico institucional',
      select_show_info: ['tipo_permiso', 'fechas_permiso', 'dias_solicitados', 'motivo'],
      activity_register: true,
    },
  }
  return publishForm({ name: 'Solicitud de permiso', jsonconfig, process, userId: ownerId })
}
