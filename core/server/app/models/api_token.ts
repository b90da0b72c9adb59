import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class ApiToken extends BaseModel {
  static updatedAt = false
  @column({ isPrimary: true }) declare id: number
  @column({ serializeAs: null }) declare tokenHash: string
  @column() declare userId: number
  @column() declare name: string
  @column.dateTime() declare lastUsedAt: DateTime | null
  @column.dateTime() declare expiresAt: DateTime | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
}
