import type { PluginProgram } from '@tramita/plugin-api'

/** The devices plugin's programs (the `./programs` export): `tramita agent`. */
const programs: PluginProgram[] = [
  {
    name: 'agent',
    description: 'Runs the devices agent: connects this computer’s printers and scanners to a Tramita server',
    // Loaded when asked for: the agent's drivers are not the CLI's to import otherwise.
    run: async (argv) => (await import('./main.js')).runAgent(argv),
  },
]

export default programs
