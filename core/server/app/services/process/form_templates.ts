import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '#lib/paths'

/** The ready-made forms in templates/forms, listed explicitly (a test checks list and folder agree). */
export const FORM_TEMPLATES = [
  { id: 'solicitud-permiso', name: 'Solicitud de permiso' },
  { id: 'hoja-de-vida', name: 'Hoja de vida (postulación con firma)' },
  { id: 'reporte-incidente', name: 'Reporte de incidente con fotos' },
  { id: 'censo', name: 'Censo de hogares y vivienda' },
  { id: 'planilla-calificaciones', name: 'Planilla de calificaciones' },
] as const

export const TEMPLATES_DIR = join(REPO_ROOT, 'templates', 'forms')

/** A template's jsonconfig, or null for an id that is not in the list (so no path is ever built from input). */
export async function templateConfig(id: string): Promise<unknown | null> {
  const template = FORM_TEMPLATES.find((t) => t.id === id)
  if (!template) return null
  return JSON.parse(await readFile(join(TEMPLATES_DIR, `${template.id}.json`), 'utf8')) as unknown
}
