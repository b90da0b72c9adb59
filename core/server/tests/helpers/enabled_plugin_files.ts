/**
 * A suite's file patterns with `plugins/*` narrowed to the enabled plugins (bin/test.ts). A disabled
 * plugin's routes, screens and jobs are gone, so are its tests; and a folder under plugins/ that is
 * not in the list is not this installation's: make:plugin's scaffold, made and removed by the CLI
 * suite while the other suites run (its own test run enables it in a copy of the list).
 */
export function enabledPluginPatterns(patterns: string[], enabled: string[]): string[] {
  return patterns.flatMap((pattern) =>
    pattern.includes('/plugins/*/') ? enabled.map((id) => pattern.replace('/plugins/*/', `/plugins/${id}/`)) : [pattern]
  )
}
