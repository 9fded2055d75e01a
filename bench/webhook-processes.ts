/**
 * The processes of `bench/webhooks.ts`. `receiver`: answers every POST 204, at once or after the
 * `delayMs` it is told, and reports over IPC when it has received the number it was told to expect.
 * `dispatcher`: opens the store named by its arguments and, on `go`, starts a webhook dispatcher;
 * on `report` it sends the CPU time it used since `go` and the attempts it made; on `stop` it stops
 * the dispatcher and exits. Endpoints name the host `receiver.bench`, which the dispatcher's resolver
 * answers with 127.0.0.1 (counting its calls: one per attempt, as every delivery resolves its host).
 * Run with `node --import tsx bench/webhook-processes.ts <json-args>`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPostgresStore } from '../src/stores/postgres/index.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import { createWebhookDispatcher, type WebhookResolver } from '../src/webhooks/index.js'

type Args =
  | { role: 'receiver' }
  | {
      role: 'dispatcher'
      target: { sqlite: string } | { postgres: string; schema: string }
      concurrency: number
    }

/** What a dispatcher process reports: CPU microseconds since `go` and the attempts it made. */
export interface DispatcherReport {
  cpuMicros: number
  attempts: number
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args

if (args.role === 'receiver') {
  let received = 0
  let expected = Number.POSITIVE_INFINITY
  let delayMs = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const answer = () => response.writeHead(204).end()
      if (delayMs > 0) setTimeout(answer, delayMs)
      else answer()
      received += 1
      if (received === expected) process.send?.({ done: received })
    })
  })
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }))
  process.on('message', (message: { expect?: number; delayMs?: number }) => {
    if (message.expect === undefined) return
    received = 0
    expected = message.expect
    delayMs = message.delayMs ?? 0
  })
} else {
  const store =
    'sqlite' in args.target
      ? await createSqliteStore({ filename: args.target.sqlite }, { migrate: false })
      : await createPostgresStore(
          { connectionString: args.target.postgres, schema: args.target.schema, max: args.concurrency + 2 },
          { migrate: false },
        )
  let attempts = 0
  const resolver: WebhookResolver = async () => {
    attempts += 1
    return [{ address: '127.0.0.1', family: 4 }]
  }
  const dispatcher = createWebhookDispatcher({
    store,
    allowInsecureUrls: true,
    concurrency: args.concurrency,
    pollIntervalMs: 20,
    resolver,
    onError: (error) => console.error(error),
  })
  let cpuAtGo = process.cpuUsage()
  process.on('message', async (message) => {
    if (message === 'go') {
      cpuAtGo = process.cpuUsage()
      dispatcher.start()
    }
    if (message === 'report') {
      const { user, system } = process.cpuUsage(cpuAtGo)
      process.send?.({ cpuMicros: user + system, attempts } satisfies DispatcherReport)
    }
    if (message === 'stop') {
      await dispatcher.stop()
      await store.close()
      process.disconnect()
    }
  })
  process.send?.('ready')
}
