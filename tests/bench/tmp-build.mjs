import { build } from 'vite'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
const ROOT='/work/main'
const run = spawnSync(join(ROOT,'node_modules/.bin/node'),['--import','@poppinss/ts-exec',join(ROOT,'tests/bench/form-survey.ts')],{cwd:join(ROOT,'core/server'),encoding:'utf8',maxBuffer:1e8})
const form = JSON.parse(run.stdout)
await build({configFile: join(ROOT,'tests/bench/form-harness/vite.config.ts'), logLevel:'error', define:{__BENCH_SURVEY__:JSON.stringify(form.survey),__BENCH_CONFIG__:JSON.stringify(form.config)}, build:{outDir:process.argv[2], minify: process.argv[3]!=='dev'}})
