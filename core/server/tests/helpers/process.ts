import db from '@adonisjs/lucid/services/db'
import Area from '#models/area'
import Role from '#models/role'
import { publishForm } from '#services/process/forms'
import { seedBase } from '#services/seed_service'

/** A permit request: the applicant fills it, an area reviews it, a supervisor approves or sends it back. */
export function permitConfig(extraField?: Record<string, unknown>) {
  return {
    form: {
      pages: [
        {
          name: 'Solicitud',
          layout: [['nombre', 'dias'], ['motivo'], ...(extraField ? [[extraField.field_name]] : [])],
        },
        { name: 'Revisión', layout: [['observacion']] },
      ],
    },
    fields: [
      { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
      { field_name: 'dias', type: 'number', data: { label: { value: 'Días' }, limit: { min: 1, max: 30 } } },
      { field_name: 'motivo', type: 'text', data: { label: { value: 'Motivo' } } },
      {
        field_name: 'observacion',
        type: 'text',
        show_on_task: ['revision'],
        data: { label: { value: 'Observación' }, validate: { required: true } },
      },
      ...(extraField ? [extraField] : []),
    ],
  }
}

/** A process of one step: an area fills it in, then the case ends. */
export function areaReviewProcess(label: string, areaId: number) {
  return {
    label,
    color: '#1C1066',
    states: [
      { id: 'init', label: 'Iniciado' },
      { id: 'end', label: 'Finalizado' },
    ],
    start: { step: 'revision' },
    steps: [
      { id: 'revision', label: 'Revisión', kind: 'fill', assign: { type: 'area', id: areaId }, next: { step: null } },
    ],
  }
}

export function permitProcess(
  areaId: number,
  approverRoleId: number,
  consult: Record<string, unknown> = { enable: true }
) {
  return {
    label: 'Solicitud de permiso',
    color: '#1C1066',
    states: [
      { id: 'init', label: 'Iniciado', color: '#7f82ff' },
      { id: 'revision', label: 'En revisión', color: '#f0a000' },
      { id: 'aprobado', label: 'Aprobado', color: '#00aa55' },
      { id: 'rechazado', label: 'Rechazado', color: '#cc0000' },
      { id: 'end', label: 'Finalizado', color: '#1C1066' },
    ],
    start: { step: 'revision' },
    steps: [
      {
        id: 'revision',
        label: 'Revisión',
        kind: 'fill',
        assign: { type: 'area', id: areaId },
        state: 'revision',
        next: { step: 'aprobacion' },
        go_to_states: ['rechazado'],
      },
      {
        id: 'aprobacion',
        label: 'Aprobación',
        kind: 'approve',
        assign: { type: 'rol', id: approverRoleId },
        decisions: [
          { id: 'aprobar', label: 'Aprobar', color: '#00aa55', next: { step: null, state: 'aprobado' } },
          { id: 'rechazar', label: 'Rechazar', color: '#cc0000', next: { step: 'revision', state: 'rechazado' } },
        ],
      },
    ],
    external_consultation: consult,
  }
}

/** Empties the engine's tables (cases, tasks, activities and forms). */
export async function resetProcessTables() {
  for (const table of ['activities', 'tasks', 'cases', 'form_versions', 'forms']) await db.from(table).delete()
}

/** Publishes the permit form with a review area and the supervisor role as approver. */
export async function publishPermit(
  options: { extraField?: Record<string, unknown>; consult?: Record<string, unknown> } = {}
) {
  await seedBase()
  const area =
    (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
  const supervisor = await Role.findByOrFail('name', 'supervisor')
  const published = await publishForm({
    name: 'Solicitud de permiso',
    jsonconfig: permitConfig(options.extraField),
    process: permitProcess(area.id, supervisor.id, options.consult),
    userId: null,
  })
  return { ...published, area, supervisor }
}
