/** The types of checksum.mjs (plain JavaScript, run by the fuzzer as is) for the TypeScript checks that use it. */
export interface Checksummer {
  tables: string[]
  sum(): Promise<Record<string, string>>
  close(): Promise<void>
}

export const VOLATILE: Set<string>
export const DRAINED: Set<string>

export function checksummer(server: {
  database: 'sqlite' | 'mysql'
  sqliteFile?: string
  mysqlConnection(): Promise<unknown>
}): Promise<Checksummer>

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[]
