import { CliError } from '../output.js'

/**
 * `tramita <program> ...`: a program an enabled plugin ships (plugin-api PluginProgram, the package's
 * `./programs` export), run without booting the app: the devices agent runs on a computer with no
 * database. Null when no enabled plugin has a program of that name.
 */
export async function runProgram(name: string, argv: string[]): Promise<number | null> {
  const { pluginPrograms } = await import('@tramita/server/app/plugins/enabled.ts')
  const programs = await pluginPrograms()
  const found = programs.find((p) => p.program.name === name)
  if (!found) return null
  try {
    return (await found.program.run(argv)) ?? 0
  } catch (error) {
    throw new CliError(`${name}: ${(error as Error).message}`)
  }
}
