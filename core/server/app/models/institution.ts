import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class Institution extends BaseModel {
  static table = 'institution'

  @column({ isPrimary: true }) declare id: number
  @column() declare name: string
  @column() declare logo: string | null
  @column() declare loginBackground: string | null
  @column() declare loginPanel: string | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
  @column.dateTime({ autoCreate: true, autoUpdate: true }) declare updatedAt: DateTime
}
