import db from '@adonisjs/lucid/services/db'
import Area from '#models/area'
import Institution from '#models/institution'
import { seedDemoProcess } from '#services/process/demo_process'
import Role, { CORE_ROLES } from '#models/role'
import User from '#models/user'
import { hashTypedPassword } from '#lib/password'

/** The demo password when TRAMITA_DEMO_PASSWORD is not set (printed in the README). */
export const DEFAULT_DEMO_PASSWORD = 'Tramita#2026'

/** Base data every installation needs: the spec's four roles and an institution row. Idempotent. */
export async function seedBase(): Promise<void> {
  for (const name of CORE_ROLES) {
    await Role.firstOrCreate({ name })
  }
  if (!(await Institution.query().first())) {
    await Institution.create({ name: 'Tramita', logo: null })
  }
}

const DEMO_AREAS = [
  { name: 'Secretaría', color: '#1C1066' },
  { name: 'Académica', color: '#2E7D32' },
  { name: 'Bienestar', color: '#C62828' },
]

const DEMO_USERS = [
  { username: 'admin', firstName: 'Ana', lastName: 'Administradora', role: 'superuser', areas: ['Secretaría'] },
  { username: 'supervisor', firstName: 'Sergio', lastName: 'Supervisor', role: 'supervisor', areas: ['Académica'] },
  { username: 'teacher', firstName: 'Teresa', lastName: 'Docente', role: 'teacher', areas: ['Académica'] },
  { username: 'student', firstName: 'Esteban', lastName: 'Estudiante', role: 'student', areas: ['Bienestar'] },
]

/** The demo accounts' user names. */
export const DEMO_USERNAMES = DEMO_USERS.map((u) => u.username)

/**
 * Demo data: an institution, areas, and the superuser `admin` with id 1 plus a supervisor, a teacher
 * and a student, all with one password. Refuses to run over existing users so it never clobbers data.
 */
export async function seedDemo(password = process.env.TRAMITA_DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD) {
  await seedBase()
  if (await User.query().first()) {
    return {
      created: false as const,
      reason: 'the database already has users (demo data goes only into one without any)',
    }
  }
  const passwordHash = await hashTypedPassword(password)
  await db.transaction(async (trx) => {
    const institution = await Institution.query({ client: trx }).firstOrFail()
    institution.useTransaction(trx)
    institution.name = 'Institución Educativa Tramita'
    await institution.save()
    const areas = new Map<string, number>()
    for (const area of DEMO_AREAS) {
      const row = await Area.firstOrCreate({ name: area.name }, area, { client: trx })
      areas.set(area.name, row.id)
    }
    const roles = new Map((await Role.query({ client: trx })).map((r) => [r.name, r.id]))
    for (const [index, demo] of DEMO_USERS.entries()) {
      const user = await User.create(
        {
          ...(index === 0 ? { id: 1 } : {}),
          username: demo.username,
          email: `${demo.username}@tramita.local`,
          passwordHash,
          firstName: demo.firstName,
          lastName: demo.lastName,
          enabled: true,
          blocked: false,
          apiEnabled: false,
          requiredTfa: false,
          twoFa: false,
        },
        { client: trx }
      )
      await user.related('roles').attach([roles.get(demo.role)!], trx)
      await user.related('areas').attach(
        demo.areas.map((a) => areas.get(a)!),
        trx
      )
    }
  })
  const form = await seedDemoProcess(1)
  return { created: true as const, users: DEMO_USERNAMES, forms: [form.key] }
}
