import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class RecoveryCode extends BaseModel {
  static table = 'recovery_codes'
  @column({ isPrimary: true }) declare id: number
  @column() declare userId: number
  @column({ serializeAs: null }) declare codeHash: string
  @column.dateTime() declare usedAt: DateTime | null
}
