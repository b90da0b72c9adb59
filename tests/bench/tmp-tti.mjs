import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { join, extname, normalize } from 'node:path'
import { generate } from './form.bench.mjs'
const { launchChromium } = await import('/work/main/tests/e2e/chromium.ts')
const out=process.env.OUT ?? '/tmp/fh-out'
const T={'.html':'text/html','.js':'text/javascript','.css':'text/css','.wasm':'application/wasm'}
const server=createServer((q,r)=>{const p=normalize(new URL(q.url,'http://x').pathname).replace(/^\/+/,'');try{const b=readFileSync(join(out,p));r.writeHead(200,{'content-type':T[extname(p)]??'application/octet-stream'}).end(b)}catch{r.writeHead(404).end()}})
await new Promise(r=>server.listen(0,'127.0.0.1',r))
const b=await launchChromium()
const lib = process.argv[2] ?? 'tramita'
const ctx=await b.newContext(); const page=await ctx.newPage()
const sel = lib==='tramita' ? (n)=>`.ffield[data-field="${n}"]` : (n)=>`[data-name="${n}"]`
await page.addInitScript(({shown, hidden, lib})=>{
  const sel = lib==='tramita' ? (n)=>`.ffield[data-field="${n}"]` : (n)=>`[data-name="${n}"]`
  window.__t={}
  const mo=new MutationObserver(()=>{ if(shown.every(n=>document.querySelector(sel(n)+' :is(input, textarea, select, button, [role="combobox"], [tabindex])')) && !hidden.some(n=>document.querySelector(sel(n)))){ mo.disconnect(); performance.mark('ready'); requestAnimationFrame(()=>{__t.ready=performance.now()}) } })
  mo.observe(document,{childList:true,subtree:true})
  addEventListener('keydown',()=>performance.mark('keydown'),true)
}, {shown: (await import('./form.bench.mjs')).generate ? JSON.parse(process.env.SPEC).shown : [], hidden: JSON.parse(process.env.SPEC).hidden, lib})
await b.startTracing(page,{path:process.argv[3], categories:['devtools.timeline','disabled-by-default-devtools.timeline','v8.execute','blink.user_timing','v8','toplevel','devtools.timeline.async']})
await page.goto(`http://127.0.0.1:${server.address().port}/${lib}.html`, {waitUntil:'commit'})
await page.waitForFunction(()=>__t.ready!==undefined, undefined, {polling:'raf'})
const t1 = await page.evaluate(()=>performance.now())
await page.focus(lib==='tramita' ? '#ff-q7' : '[data-name="q7"] input')
const t2 = await page.evaluate(()=>performance.now())
await page.keyboard.press('a')
const t3 = await page.evaluate(()=>performance.now())
await page.waitForTimeout(500)
await b.stopTracing()
console.log(JSON.stringify({ready: await page.evaluate(()=>__t.ready), seenByBench: t1, afterFocus: t2, afterPress: t3}))
await b.close(); server.close()
