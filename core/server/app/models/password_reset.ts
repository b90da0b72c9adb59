import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class PasswordReset extends BaseModel {
  static updatedAt = false
  @column({ isPrimary: true }) declare id: number
  @column({ serializeAs: null }) declare tokenHash: string
  @column() declare userId: number
  @column.dateTime() declare expiresAt: DateTime
  @column.dateTime() declare usedAt: DateTime | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
}
