/** The floor page's worker: answers whether the driver holds text, at once. */
const scope = globalThis as unknown as {
  postMessage(message: unknown): void
  onmessage: ((event: { data: string }) => void) | null
}
scope.onmessage = (event) => scope.postMessage(event.data !== '')
