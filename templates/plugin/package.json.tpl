{
  "name": "@tramita/plugin-__ID__",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "exports": { ".": "./server/index.ts" },
  "dependencies": { "@tramita/plugin-api": "0.1.0" }
}
