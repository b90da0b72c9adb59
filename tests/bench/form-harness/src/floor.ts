/**
 * The floor of any answer from another thread (tests/bench/form.bench.mjs): page 1's questions as
 * bare inputs, no framework and no form; the driver's input event posts its value to a worker that
 * answers at once, and the answer adds or removes the dependents. Whatever this page measures from
 * keystroke to the dependents' frame is what the browser's scheduling alone costs a round trip, so
 * no sandbox in a worker can do better on this machine.
 */
const root = document.getElementById('root')!
const question = (name: string) => {
  const cell = document.createElement('div')
  cell.dataset.name = name
  const input = document.createElement('input')
  input.setAttribute('aria-label', name)
  cell.append(input)
  return cell
}
const { shown, driver, dependents: names, shownAtLoad } = __BENCH_FLOOR__
for (const name of shown) if (!names.includes(name)) root.append(question(name))

// Shown on an empty driver in the variant whose conditions are true at load, once it holds text otherwise.
const dependents = names.map(question)
if (shownAtLoad) root.append(...dependents)
const worker = new Worker(new URL('./floor-worker.ts', import.meta.url), { type: 'module' })
worker.onmessage = (event: MessageEvent<boolean>) => {
  for (const cell of dependents) {
    if (event.data !== shownAtLoad) root.append(cell)
    else cell.remove()
  }
}
root.querySelector(`[data-name="${driver}"] input`)!.addEventListener('input', (event) => {
  worker.postMessage((event.target as HTMLInputElement).value)
})
