import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class Session extends BaseModel {
  @column({ isPrimary: true }) declare id: number
  @column({ serializeAs: null }) declare tokenHash: string
  @column() declare userId: number
  @column() declare ip: string | null
  @column() declare userAgent: string | null
  @column() declare impersonatorId: number | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
  @column.dateTime() declare lastSeenAt: DateTime
  @column.dateTime() declare expiresAt: DateTime
  @column.dateTime() declare revokedAt: DateTime | null
}
