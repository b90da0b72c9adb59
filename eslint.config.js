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
]
