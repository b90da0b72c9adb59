import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A right password waiting for its second factor (or the first code of an enrolment). */
export default class LoginTicket extends BaseModel {
  static updatedAt = false
  @column({ isPrimary: true }) declare id: number
  @column({ serializeAs: null }) declare tokenHash: string
  @column() declare userId: number
  @column({ serializeAs: null }) declare pendingSecret: string | null
  @column() declare failures: number
  @column({ consume: Boolean }) declare verified: boolean
  @column() declare ip: string | null
  @column.dateTime() declare expiresAt: DateTime
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
}
