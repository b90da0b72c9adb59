import { parentPort, workerData } from 'node:worker_threads'

/**
 * A worker for the slot test (tests/unit/worker_slots.spec.ts): counts itself in `started`, waits for
 * the test to open `gate`, then answers.
 */
const { started, gate } = workerData as { started: Int32Array; gate: Int32Array }
Atomics.add(started, 0, 1)
Atomics.wait(gate, 0, 0)
parentPort!.postMessage('done')
