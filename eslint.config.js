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
]
