import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class AuditLog extends BaseModel {
  static updatedAt = false

  @column({ isPrimary: true }) declare id: number
  @column() declare actorId: number | null
  @column() declare action: string
  @column() declare subjectType: string | null
  @column() declare subjectId: string | null
  @column({
    prepare: (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value)),
    consume: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
  })
  declare data: Record<string, unknown> | null
  @column() declare ip: string | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
}
