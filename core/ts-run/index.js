/**
 * `node --import @tramita/ts-run file.ts`, or `await import('@tramita/ts-run')` before the first
 * TypeScript import: Node runs our TypeScript (decorators included, which its own type stripping
 * refuses) compiled by SWC with the options of the tsconfig.json found from the working directory.
 *
 * Why not @poppinss/ts-exec, which did this before: its hooks run on Node's loader thread, and every
 * import (node_modules too) then waits on a message to that thread; a CLI command's profile spent
 * 0.67 of its 1.5 s there. These hooks run in the importing thread (module.registerHooks), and
 * compiled files are kept on disk by content, so a second process compiles nothing (files of sources
 * since changed stay there until the folder is deleted). Hooks are per thread: a worker thread that
 * runs TypeScript gets `--import @tramita/ts-run` in its execArgv.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { enableCompileCache, registerHooks } from 'node:module'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import swc from '@swc/core'
import { getTsconfig } from 'get-tsconfig'
import { swcOptions } from './options.js'

process.setSourceMapsEnabled(true)

const options = swcOptions(getTsconfig(process.cwd())?.config)
const CACHE =
  process.env.TRAMITA_TS_CACHE ?? fileURLToPath(new URL('../../node_modules/.cache/ts-run/', import.meta.url))
// V8's compiled code of every module loaded after this one, on disk too: a `tramita` command loads about
// 2,500 modules, and compiling them was a quarter of its CPU (about 0.3 s of 2.5 s saved a call). A
// read-only install goes on without it.
enableCompileCache(process.env.NODE_COMPILE_CACHE ?? join(CACHE, '../node-compile'))
const salt = `${swc.version}\0${JSON.stringify(options)}`
let cacheWritable = true

const isLocal = (s) => s.startsWith('./') || s.startsWith('../') || s.startsWith('/') || s.startsWith('file:')
const isTypeScript = (format, url) =>
  format === 'module-typescript' || format === 'commonjs-typescript' || url.endsWith('.tsx') || url.endsWith('.jsx')

/** SWC's output for a file, from the disk cache when the same source was compiled before. */
function compile(source, filename, moduleType) {
  const key = createHash('sha256').update(`${salt}\0${moduleType}\0${filename}\0${source}`).digest('hex')
  const file = join(CACHE, key.slice(0, 2), `${key}.js`)
  try {
    return readFileSync(file, 'utf8')
  } catch {}
  const parser = { ...options.jsc.parser, tsx: /\.[jt]sx$/.test(filename) }
  const jsc = { ...options.jsc, parser }
  const { code, map } = swc.transformSync(source, { ...options, jsc, module: { type: moduleType }, filename })
  const output = map
    ? `${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}`
    : code
  if (cacheWritable) {
    try {
      mkdirSync(join(CACHE, key.slice(0, 2)), { recursive: true })
      // Written aside and renamed: a process reading it at the same moment sees all of it or none.
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`
      writeFileSync(temp, output)
      renameSync(temp, file)
    } catch {
      cacheWritable = false // a read-only install compiles every time
    }
  }
  return output
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    // From TypeScript, `./x.js` is nearly always `./x.ts`: tried first, it saves a failed lookup and its
    // error for each of the app's ~400 files.
    const parent = context.parentURL ?? ''
    if (specifier.endsWith('.js') && specifier.startsWith('.') && /\.tsx?$/.test(parent)) {
      try {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context)
      } catch {}
    }
    try {
      return nextResolve(specifier, context)
    } catch (error) {
      // `./x.js` written for the compiled layout, with only `./x.ts` or `./x.tsx` on disk.
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !error.url || !isLocal(error.url)) throw error
      const [path, ...query] = error.url.split('?')
      const ext = extname(path)
      const tries =
        ext === '.js' ? ['.ts', '.tsx'] : ['.mjs', '.cjs', '.jsx'].includes(ext) ? [ext.replace('js', 'ts')] : []
      for (const next of tries) {
        try {
          return nextResolve([path.slice(0, -ext.length) + next, ...query].join('?'), context)
        } catch {}
      }
      throw error
    }
  },
  load(url, context, nextLoad) {
    const { format } = context
    if (!isTypeScript(format, url)) return nextLoad(url, context)
    const { source } = nextLoad(url, { ...context, format: 'module' })
    const moduleType = format === 'commonjs-typescript' ? 'commonjs' : 'es6'
    const code = compile(String(source), fileURLToPath(url), moduleType)
    return {
      format: format ? format.replace('-typescript', '') : 'module',
      source: `${code}\n//# sourceURL=${url}`,
      shortCircuit: true,
    }
  },
})
