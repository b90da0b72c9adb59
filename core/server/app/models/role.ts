import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export { CORE_ROLES } from '@tramita/contract/rules'

export default class Role extends BaseModel {
  @column({ isPrimary: true }) declare id: number
  @column() declare name: string
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
  @column.dateTime({ autoCreate: true, autoUpdate: true }) declare updatedAt: DateTime
}
