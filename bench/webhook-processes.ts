/**
 * The processes of `bench/webhooks.ts`. `receiver`: answers every POST 204, at once or after the
 * `delayMs` it is told, and reports over IPC when it has received the number it was told to expect.
 * `dispatcher`: opens the store named by its arguments and, on `go`, starts a webhook dispatcher;
 * on `report` it sends the CPU time it used since `go` and the attempts it made; on `stop` it stops
 * the dispatcher and exits. Endpoints name the host `receiver.bench`, which the dispatcher's resolver
 * answers with 127.0.0.1 (counting its calls: one per attempt, as every delivery resolves its host).
 * Run with `node --import tsx bench/webhook-processes.ts <json-args>`.
 */
import Database from 'better-sqlite3'
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

/**
 * What a dispatcher process reports: CPU microseconds since `go`, the attempts it made and, on
 * SQLite, the statements it ran (BEGIN and COMMIT included; null on Postgres).
 */
export interface DispatcherReport {
  cpuMicros: number
  attempts: number
  statements: number | null
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
  let statements = 0
  let counting = false
  /** A better-sqlite3 handle whose statements count their runs once `go` has come. */
  const counted = (filename: string) => {
    const database = new Database(filename)
    const prepare = database.prepare.bind(database)
    database.prepare = ((text: string) => {
      const statement = prepare(text)
      for (const name of ['all', 'get', 'run', 'iterate'] as const) {
        const original = statement[name].bind(statement) as (...a: unknown[]) => unknown
        Object.assign(statement, {
          [name]: (...a: unknown[]) => {
            if (counting) statements += 1
            return original(...a)
          },
        })
      }
      return statement
    }) as typeof database.prepare
    return database
  }
  const store =
    'sqlite' in args.target
      ? await createSqliteStore({ database: counted(args.target.sqlite) }, { migrate: false })
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
      counting = true
      dispatcher.start()
    }
    if (message === 'report') {
      const { user, system } = process.cpuUsage(cpuAtGo)
      const counted = 'sqlite' in args.target ? statements : null
      process.send?.({ cpuMicros: user + system, attempts, statements: counted } satisfies DispatcherReport)
    }
    if (message === 'stop') {
      await dispatcher.stop()
      await store.close()
      process.disconnect()
    }
  })
  process.send?.('ready')
}
