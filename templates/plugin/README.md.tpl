# __TITLE__ (plugin `__ID__`)

Created with `tramita make:plugin __ID__`. Its definition is in `server/index.ts`; it is enabled in
`tramita.plugins.json` at the repository root. Its tests (`tests/`) run in the functional suite.
