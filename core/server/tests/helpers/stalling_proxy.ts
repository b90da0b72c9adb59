import { connect, createServer, type Socket } from 'node:net'

/**
 * A TCP proxy in the test process in front of a real server, which can stop passing bytes on (both
 * ways, connections held open) as a frozen server or a network that drops packets would.
 */
export interface StallingProxy {
  port: number
  /** From now on nothing passes; new connections are accepted and hear nothing. */
  stall(): void
  /** Bytes pass again (those sent while stalled are lost, as dropped packets past TCP's patience). */
  resume(): void
  close(): Promise<void>
}

export async function startStallingProxy(target: { host: string; port: number }): Promise<StallingProxy> {
  let stalled = false
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    track(client)
    track(upstream)
    client.on('data', (chunk) => stalled || upstream.write(chunk))
    upstream.on('data', (chunk) => stalled || client.write(chunk))
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    stall: () => {
      stalled = true
    },
    resume: () => {
      stalled = false
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
