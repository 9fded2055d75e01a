/** Helpers of the store tests: child processes and a TCP proxy that can be cut and restored. */
import { fork } from 'node:child_process'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'

const worker = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** Runs `worker.ts` with `args` in a child process; resolves to the statuses it printed. */
export function runWorker(args: object): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [JSON.stringify(args)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    let out = ''
    let err = ''
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`worker exited with ${code}: ${err}`))
      const line = out.trim().split('\n').pop() ?? '{}'
      resolve((JSON.parse(line) as { statuses: number[] }).statuses)
    })
  })
}

/** A TCP proxy to `target`; `stop()` cuts every connection and stops listening, `start()` listens again on the same port. */
export class TcpProxy {
  #server: Server | null = null
  #sockets = new Set<Socket>()
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host)
      for (const s of [client, upstream]) {
        this.#sockets.add(s)
        s.on('close', () => this.#sockets.delete(s))
        s.on('error', () => s.destroy())
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
    this.#server = server
  }

  async stop(): Promise<void> {
    for (const s of this.#sockets) s.destroy()
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
    this.#server = null
  }
}
