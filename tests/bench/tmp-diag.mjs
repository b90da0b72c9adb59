import { createServer } from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, extname, normalize } from 'node:path'
const { launchChromium } = await import('/work/main/tests/e2e/chromium.ts')
const out='/tmp/fh-out'
const T={'.html':'text/html','.js':'text/javascript','.css':'text/css','.wasm':'application/wasm'}
const server=createServer((q,r)=>{const p=normalize(new URL(q.url,'http://x').pathname).replace(/^\/+/,'');try{const b=readFileSync(join(out,p));r.writeHead(200,{'content-type':T[extname(p)]??'application/octet-stream'}).end(b)}catch{r.writeHead(404).end()}})
await new Promise(r=>server.listen(0,'127.0.0.1',r))
const b=await launchChromium()
const lib = process.argv[2] ?? 'tramita'
const trace = process.argv[3]
for (let i=0;i<(trace?1:3);i++){
  const ctx=await b.newContext(); const page=await ctx.newPage()
  await page.addInitScript((lib)=>{
    const sel = lib==='tramita' ? (n)=>`.ffield[data-field="${n}"]` : (n)=>`[data-name="${n}"]`
    window.__d={long:[], first:null, ready:null}
    new PerformanceObserver(l=>{for(const e of l.getEntries()) __d.long.push([Math.round(e.startTime), Math.round(e.duration)])}).observe({type:'longtask', buffered:true})
    new MutationObserver(()=>{ if(__d.first===null && document.querySelector(sel('q0'))) __d.first=performance.now(); if(__d.first!==null && __d.ready===null && !document.querySelector(sel('q4'))) __d.ready=performance.now() }).observe(document,{childList:true,subtree:true})
  }, lib)
  if (trace) await b.startTracing(page,{path:trace, categories:['devtools.timeline','disabled-by-default-devtools.timeline','v8.execute','blink.user_timing','v8','v8.wasm','disabled-by-default-v8.wasm.detailed','devtools.timeline.async']})
  await page.goto(`http://127.0.0.1:${server.address().port}/${lib}.html`)
  await page.waitForTimeout(3500)
  if (trace) await b.stopTracing()
  const d = await page.evaluate(()=>({...__d, res: performance.getEntriesByType('resource').map(e=>[e.name.split('/').pop(), Math.round(e.startTime), Math.round(e.responseEnd)]), nav: performance.getEntriesByType('navigation').map(e=>[Math.round(e.responseEnd), Math.round(e.domInteractive), Math.round(e.domContentLoadedEventEnd)])}))
  console.log(JSON.stringify({first:Math.round(d.first), ready: Math.round(d.ready), nav:d.nav, long:d.long}))
  if(i===0) console.log(d.res.map(r=>r.join(' ')).join('\n'))
  await ctx.close()
}
await b.close(); server.close()
