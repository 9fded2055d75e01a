/**
 * The processes of `bench/webhooks.ts`. `receiver`: answers every POST 204 at once and reports over
 * IPC when it has received the number it was told to expect. `dispatcher`: opens the store named by
 * its arguments and, on `go`, starts a webhook dispatcher; on `stop` it stops it and exits.
 * Run with `node --import tsx bench/webhook-processes.ts <json-args>`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPostgresStore } from '../src/stores/postgres/index.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'
import { createWebhookDispatcher } from '../src/webhooks/index.js'

type Args =
  | { role: 'receiver' }
  | {
      role: 'dispatcher'
      target: { sqlite: string } | { postgres: string; schema: string }
      concurrency: number
    }

const args = JSON.parse(process.argv[2] ?? '{}') as Args

if (args.role === 'receiver') {
  let received = 0
  let expected = Number.POSITIVE_INFINITY
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(204).end()
      received += 1
      if (received === expected) process.send?.({ done: received })
    })
  })
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }))
  process.on('message', (message: { expect?: number }) => {
    if (message.expect === undefined) return
    received = 0
    expected = message.expect
  })
} else {
  const store =
    'sqlite' in args.target
      ? await createSqliteStore({ filename: args.target.sqlite }, { migrate: false })
      : await createPostgresStore(
          { connectionString: args.target.postgres, schema: args.target.schema, max: args.concurrency + 2 },
          { migrate: false },
        )
  const dispatcher = createWebhookDispatcher({
    store,
    allowInsecureUrls: true,
    concurrency: args.concurrency,
    pollIntervalMs: 20,
    onError: (error) => console.error(error),
  })
  process.on('message', async (message) => {
    if (message === 'go') dispatcher.start()
    if (message === 'stop') {
      await dispatcher.stop()
      await store.close()
      process.disconnect()
    }
  })
  process.send?.('ready')
}
