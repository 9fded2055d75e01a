/** Helpers of the store tests: child processes and a TCP proxy that can be cut and restored. */
import { createServer, connect, type Server, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { forkWorker } from '../support/worker-process.js'

const worker = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** Runs `worker.ts` with `args` in a child process; resolves to the statuses it printed. */
export async function runWorker(args: object): Promise<number[]> {
  return (await forkWorker<{ statuses: number[] }>(worker, args).result).statuses
}

/** One proxied connection: the client's socket, the upstream socket, and what the proxy does with them. */
interface Link {
  client: Socket
  upstream: Socket
  /** Passes nothing on any more, not even a close: to both ends the other has gone silent. */
  silenced: boolean
  /** Data (or an end, `null`) held back while the proxy holds, in order. */
  held: Array<[Socket, Buffer | null]>
}

/**
 * A TCP proxy to `target`. `stop()` cuts every connection and stops listening, `start()` listens
 * again on the same port. `silence()` makes every existing connection a black hole (a failover or a
 * NAT that forgot it: no FIN, no RST, the sockets stay open) while new ones pass; `hold()` holds every
 * byte of every connection, new ones too, until `release()`.
 */
export class TcpProxy {
  #server: Server | null = null
  #links = new Set<Link>()
  #holding = false
  port = 0
  /** Connections accepted so far. */
  accepted = 0

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    // allowHalfOpen: an end from one side is passed on (or not) by the proxy, never answered by Node.
    const server = createServer({ allowHalfOpen: true }, (client) => this.#link(client))
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
    this.#server = server
  }

  /** Silences every open connection; returns how many. */
  silence(): number {
    for (const link of this.#links) link.silenced = true
    return this.#links.size
  }

  hold(): void {
    this.#holding = true
  }

  /** Delivers what was held, in order, and lets everything through again. */
  release(): void {
    this.#holding = false
    for (const link of this.#links) {
      for (const [to, chunk] of link.held.splice(0)) {
        if (to.destroyed) continue
        if (chunk === null) to.end()
        else to.write(chunk)
      }
    }
  }

  async stop(): Promise<void> {
    for (const link of this.#links) {
      link.client.destroy()
      link.upstream.destroy()
    }
    this.#links.clear()
    this.#holding = false
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
    this.#server = null
  }

  #link(client: Socket): void {
    this.accepted++
    const upstream = connect({ port: this.target.port, host: this.target.host, allowHalfOpen: true })
    const link: Link = { client, upstream, silenced: false, held: [] }
    this.#links.add(link)
    const pass = (to: Socket, chunk: Buffer | null) => {
      if (link.silenced) return
      if (this.#holding) link.held.push([to, chunk])
      else if (chunk === null) to.end()
      else to.write(chunk)
    }
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('data', (chunk: Buffer) => pass(to, chunk))
      from.on('end', () => pass(to, null))
      from.on('error', () => from.destroy())
      from.on('close', () => {
        if (link.silenced) return
        to.destroy()
        this.#links.delete(link)
      })
    }
  }
}
