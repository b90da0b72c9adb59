import { DateTime } from 'luxon'
import { BaseModel, column, manyToMany } from '@adonisjs/lucid/orm'
import type { ManyToMany } from '@adonisjs/lucid/types/relations'
import Area from '#models/area'
import Role from '#models/role'

export default class User extends BaseModel {
  @column({ isPrimary: true }) declare id: number
  @column() declare username: string
  @column() declare email: string | null
  @column({ serializeAs: null }) declare passwordHash: string | null
  @column() declare firstName: string
  @column() declare lastName: string
  @column() declare photo: string | null
  @column() declare documentType: string | null
  @column() declare documentNumber: string | null
  @column() declare mobile: string | null
  @column() declare gender: string | null
  @column.date() declare birthDate: DateTime | null
  @column() declare birthPlace: string | null
  @column() declare residence: string | null
  @column() declare stratum: number | null
  @column() declare profession: string | null
  @column() declare parentId: number | null
  @column({ consume: Boolean }) declare enabled: boolean
  @column({ consume: Boolean }) declare blocked: boolean
  @column({ consume: Boolean }) declare apiEnabled: boolean
  @column({ consume: Boolean }) declare requiredTfa: boolean
  @column({ consume: Boolean }) declare twoFa: boolean
  @column({ serializeAs: null }) declare twoFaSecret: string | null
  @column.dateTime() declare lastLoginAt: DateTime | null
  /** 'local' (argon2id password) or 'ldap' (bind against the directory). */
  @column() declare authSource: 'local' | 'ldap'
  @column.dateTime() declare lockedUntil: DateTime | null
  @column({ serializeAs: null, consume: (v: unknown) => (v === null || v === undefined ? null : Number(v)) })
  declare twoFaLastStep: number | null
  @column.dateTime() declare passwordChangedAt: DateTime | null
  @column.dateTime({ autoCreate: true }) declare createdAt: DateTime
  @column.dateTime({ autoCreate: true, autoUpdate: true }) declare updatedAt: DateTime

  @manyToMany(() => Area, { pivotTable: 'user_areas' }) declare areas: ManyToMany<typeof Area>
  @manyToMany(() => Role, { pivotTable: 'user_roles' }) declare roles: ManyToMany<typeof Role>
}
