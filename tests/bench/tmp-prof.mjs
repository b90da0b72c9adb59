import { createServer } from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, extname, normalize } from 'node:path'
const { launchChromium } = await import('/work/main/tests/e2e/chromium.ts')
const out=process.env.OUT ?? '/tmp/fh-out'
const T={'.html':'text/html','.js':'text/javascript','.css':'text/css','.wasm':'application/wasm'}
const server=createServer((q,r)=>{const p=normalize(new URL(q.url,'http://x').pathname).replace(/^\/+/,'');try{const b=readFileSync(join(out,p));r.writeHead(200,{'content-type':T[extname(p)]??'application/octet-stream'}).end(b)}catch{r.writeHead(404).end()}})
await new Promise(r=>server.listen(0,'127.0.0.1',r))
const b=await launchChromium()
const lib = process.argv[2] ?? 'tramita'
const ctx=await b.newContext(); const page=await ctx.newPage()
const cdp = await ctx.newCDPSession(page)
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval',{interval:200}); await cdp.send('Profiler.start')
await page.goto(`http://127.0.0.1:${server.address().port}/${lib}.html`)
await page.waitForTimeout(3000)
if (process.argv[3]==='keys') {
  const inp = lib==='tramita' ? '#ff-q0' : '[data-name="q0"] input'
  await cdp.send('Profiler.stop'); await cdp.send('Profiler.start')
  await page.focus(inp)
  for (let i=0;i<40;i++){ await page.keyboard.press(i%2?'Backspace':'x'); await page.waitForTimeout(50) }
}
const { profile } = await cdp.send('Profiler.stop')
writeFileSync(`/tmp/${lib}.cpuprofile`, JSON.stringify(profile))
await b.close(); server.close()
