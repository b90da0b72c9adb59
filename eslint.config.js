import globals from 'globals'
import { base } from './config/eslint.base.js'

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
  { files: ['runtime-web/src/**', 'designer/src/**'], languageOptions: { globals: { ...globals.browser } } },
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
]
