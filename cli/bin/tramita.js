#!/usr/bin/env node
// The CLI is TypeScript run through ts-run, which needs Node 24 (the `node` devDependency of the
// workspace puts it first on PATH for npm scripts and npx).
const [major] = process.versions.node.split('.').map(Number)
if (major < 24) {
  console.error(`tramita needs Node.js 24 or newer (this is ${process.version}); run it through npm scripts or npx`)
  process.exit(1)
}
await import('@tramita/ts-run')
await import('../src/main.js')
