import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** The spec's roles: superuser, supervisor, teacher, student (more may be added). */
export const CORE_ROLES = ['superuser', 'supervisor', 'teacher', 'student'] as const

export default class Role extends BaseModel {
  @column({ isPrimary: true }) declare id: number
  @column() declare name: string
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
  @column.dateTime({ autoCreate: true, autoUpdate: true }) declare updatedAt: DateTime
}
