import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import globals from 'globals'
import { base } from './config/eslint.base.js'

/** Fixed sleeps and swallowed failures in tests: each selector names a way of waiting blind. */
const TEST_WAITS = [
  {
    selector:
      "CallExpression[callee.property.name='catch'] > :function.arguments[body.type='BlockStatement'][body.body.length=0]",
    message: 'a test does not swallow a failure: let it fail, or check the error it expects',
  },
  {
    selector: "CallExpression[callee.property.name='waitForTimeout']",
    message: 'no fixed sleep: wait for the condition (a locator, waitForFunction, waitUntil in tests/e2e/session.ts)',
  },
  {
    selector: "NewExpression[callee.name='Promise'] > :function > CallExpression.body[callee.name='setTimeout']",
    message: 'no fixed sleep: poll for the condition, or drive a fake clock',
  },
  {
    selector: "ImportDeclaration[source.value='node:timers/promises'] > ImportSpecifier[imported.name='setTimeout']",
    message: 'no fixed sleep: poll for the condition, or drive a fake clock',
  },
]

/**
 * The plugin boundary (issue 19): a plugin reaches the core only through its context and these packages;
 * npm packages are its own business. Everything else the core is made of is refused.
 */
const PLUGIN_PACKAGES = ['plugin-api', 'contract', 'web', 'i18n', 'sandbox']
/** The server's `#…` subpath aliases, read from its package.json so a new one is refused at once. */
const SERVER_ALIASES = Object.keys(
  JSON.parse(readFileSync(new URL('./core/server/package.json', import.meta.url))).imports
)
  .map((alias) => alias.replace(/^#/, '').replace(/\/\*$/, ''))
  .join('|')
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_')).join('|')
/** Plugin folders below plugins/<id>/ that run in the browser or in both: no Node modules there. */
const BROWSER_FOLDERS = '{web,shared,designer}'
/** Deepest plugin file the relative-import check covers (plugins/<id>/ + this many folders). */
const PLUGIN_MAX_DEPTH = 12

/**
 * The no-restricted-imports options for a plugin file `depth` folders below plugins/<id>/. A relative
 * import that climbs `depth + 1` levels has left the plugin (into another plugin, core/, runtime-web/,
 * designer/…): that is the only way to tell `../designer/` (the plugin's own folder) from the app's.
 */
function pluginImports(depth, { node, lucidSchema }) {
  // `..` or `../` at the plugin's root level, after `depth` `../`s (a leading `./` changes nothing).
  const outside = (message) => ({ regex: `^(\\./)?(\\.\\./){${depth}}\\.\\.(/|$)`, message })
  const patterns = [
    outside(
      "a relative import stays inside its plugin: core/server, runtime-web, designer and other plugins are not a plugin's to import; use its context (@tramita/plugin-api) or @tramita/contract, web, i18n, sandbox"
    ),
    {
      regex: '^(?!\\.\\.?/)(.*/)?core/server(/|$)',
      message: "core/server is the core's inside: a plugin reaches it through its context (@tramita/plugin-api)",
    },
    {
      regex: `^#(${SERVER_ALIASES})(/|$)`,
      message: "#… aliases are core/server's inside: a plugin reaches it through its context (@tramita/plugin-api)",
    },
    {
      regex: `^@tramita/(?!(${PLUGIN_PACKAGES.join('|')})(/|$))`,
      message: `a plugin imports only @tramita/${PLUGIN_PACKAGES.join(', @tramita/')} (not another plugin, the server, runtime-web or the designer); its own files relatively`,
    },
    {
      regex: lucidSchema ? '^@adonisjs/(?!lucid/schema$)' : '^@adonisjs/',
      message: lucidSchema
        ? 'a migration imports only @adonisjs/lucid/schema from the framework'
        : "the core's framework is reached through the plugin context (ctx.db, ctx.storage, ctx.http…); @adonisjs/lucid/schema only in server/migrations",
    },
  ]
  if (!node) {
    patterns.push({
      regex: `^(node:|(${NODE_BUILTINS})(/|$))`,
      message: 'web, shared and designer code also runs in the browser: no Node modules',
    })
  }
  return ['error', { patterns }]
}

/** A block per depth and kind of file; of two blocks a file matches, the later's options replace the other's. */
function pluginBoundary() {
  const below = (n) => '*/'.repeat(n) + '*'
  const blocks = []
  for (let depth = 0; depth <= PLUGIN_MAX_DEPTH; depth++) {
    blocks.push({
      files: [`plugins/*/${below(depth)}`],
      rules: { 'no-restricted-imports': pluginImports(depth, { node: true, lucidSchema: false }) },
    })
  }
  for (let depth = 1; depth <= PLUGIN_MAX_DEPTH; depth++) {
    blocks.push({
      files: [`plugins/*/${BROWSER_FOLDERS}/${below(depth - 1)}`],
      rules: { 'no-restricted-imports': pluginImports(depth, { node: false, lucidSchema: false }) },
    })
  }
  for (let depth = 2; depth <= PLUGIN_MAX_DEPTH; depth++) {
    blocks.push({
      files: [`plugins/*/server/migrations/${below(depth - 2)}`],
      rules: { 'no-restricted-imports': pluginImports(depth, { node: true, lucidSchema: true }) },
    })
  }
  // A plugin's tests drive the real server and screens: they may use the core's test helpers and sources.
  blocks.push({ files: ['plugins/*/tests/**'], rules: { 'no-restricted-imports': 'off' } })
  return blocks
}

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/build/**',
      'data/**',
      '**/tmp-*',
      'templates/**',
      '**/.adonisjs/**',
    ],
  },
  ...base,
  {
    files: ['runtime-web/src/**', 'designer/src/**', 'core/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // The contract and the sandbox core run unchanged in Node and in the browser: no Node, no DOM.
  {
    files: ['core/contract/src/**', 'core/sandbox/src/**'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^node:', message: 'isomorphic code: no Node imports' }],
          paths: [
            {
              name: '@sinclair/typebox',
              importNames: ['Type'],
              message:
                "import * as Type from schema/type.ts: TypeBox's Type alias cannot be tree-shaken (~8 kB in the form route)",
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'window', 'document', '__dirname', 'require'],
    },
  },
  { files: ['core/sandbox/browser/**'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  // Tests wait for a condition, not for a while, and never swallow a failure (issue 17).
  {
    files: ['core/*/tests/**', 'runtime-web/tests/**', 'designer/tests/**', 'plugins/*/tests/**', 'tests/e2e/**'],
    rules: { 'no-restricted-syntax': ['error', ...TEST_WAITS] },
  },
  ...pluginBoundary(),
]
