import { parentPort } from 'node:worker_threads'
import { serveSandbox } from '../src/serve.ts'

const port = parentPort!
const handle = serveSandbox((message) => port.postMessage(message))
port.on('message', (message) => void handle(message))
