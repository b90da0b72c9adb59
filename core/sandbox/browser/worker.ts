import { serveSandbox, type ToWorker } from '../src/serve.ts'

// The worker's global scope, named without the WebWorker lib (it clashes with the DOM lib).
const scope = globalThis as unknown as {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: ToWorker }) => void): void
}
const handle = serveSandbox((message) => scope.postMessage(message))
scope.addEventListener('message', (event) => void handle(event.data))
