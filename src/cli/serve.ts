/**
 * `tenant-public-api serve` (`npm start` in the repository): the API on node:http with the demo
 * tenant (docs/cli.md). The store is a SQLite file in the current folder unless `--store` or
 * `DATABASE_URL` names another; the demo data is seeded when the store lacks it, and a fresh demo
 * key is made on every start (the previous start's is revoked). A port in use ends the start
 * (exit 1) with what to do, before the running server's key is touched; Ctrl-C stops it cleanly.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { budgets, createApiKeys, createPublicApi, SCOPES, type Store } from 'tenant-public-api'
import { nodeServerOptions, toNodeHandler } from 'tenant-public-api/node'
import { createDemoData, DEMO_TENANT_ID, demoAdmin } from 'tenant-public-api/testing'
import { BIN, type CommandSpec, CliError, misuse, type ParsedArgs, stringOption } from './args.js'
import { chooseStore, describeStore, openStore, STORE_FORMS } from './stores.js'

/** Where the data goes when no store is named: a file in the folder the command runs in. */
export const DEFAULT_SQLITE_FILE = 'tenant-public-api.db'

/** The name of the key each start makes; the previous start's key of this name is revoked. */
const DEMO_KEY_NAME = `Demo key (${BIN} serve)`

/** Tickets are seeded in slices: the demo's 10,000 are generated on demand, never all held at once. */
const TICKET_SLICE = 5_000

export const serveCommand: CommandSpec = {
  name: 'serve',
  summary: 'Serves the API with the demo tenant (an MSP with 40 companies and 10,000 tickets) and prints a key.',
  details: [
    `The store: --store, else DATABASE_URL, else the SQLite file ./${DEFAULT_SQLITE_FILE} in the current`,
    'folder (created and seeded on the first start, kept after). Every start prints a new demo key with',
    'every scope and revokes the previous one. Keys made with `keys create` on the same store work too.',
    'Ctrl-C stops it.',
  ],
  options: {
    port: { value: 'N', description: 'port to listen on (default: PORT, else 3000; 0 picks a free one)' },
    host: { value: 'HOST', description: 'address to listen on (default: HOST, else 127.0.0.1)' },
    store: { value: 'STORE', description: `${STORE_FORMS}; memory keeps nothing` },
  },
}

/** The port option: an integer 0..65535. */
function portOf(text: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port > 65_535) throw misuse(serveCommand, `--port must be 0..65535, not ${text}`)
  return port
}

/** Listens, or fails with what to do: a port in use, or one this user may not take. */
async function listen(server: Server, port: number, host: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE')
      throw new CliError(
        `Port ${port} on ${host} is in use (another ${BIN} serve?). Stop that server, or start on another ` +
          `port: --port ${port + 1} (--port 0 picks a free one).`,
      )
    if (code === 'EACCES')
      throw new CliError(`Not allowed to listen on port ${port} on ${host}. Start on a port above 1023: --port 3000.`)
    throw error
  }
}

/** Seeds the demo tenant when the store lacks its data (its first budget is the one the curl lines use). */
async function seedDemo(store: Store, demo: ReturnType<typeof createDemoData>): Promise<void> {
  if ((await store.get(budgets, DEMO_TENANT_ID, demo.budgets![0]!.id)) !== null) return
  console.log('Seeding the demo tenant (first start on this store)...')
  const { tickets, ...rest } = demo
  await store.seed(DEMO_TENANT_ID, rest)
  for (let i = 0; i < tickets.length; i += TICKET_SLICE)
    await store.seed(DEMO_TENANT_ID, { tickets: tickets.slice(i, i + TICKET_SLICE) })
}

/** A new demo key with every scope; the previous start's demo key is revoked. */
async function demoKey(keys: ReturnType<typeof createApiKeys>): Promise<string> {
  for (const old of await keys.list(DEMO_TENANT_ID))
    if (old.name === DEMO_KEY_NAME && old.revokedAt === null) await keys.revoke(old.id)
  const { key } = await keys.create({
    tenantId: DEMO_TENANT_ID,
    name: DEMO_KEY_NAME,
    scopes: [...SCOPES],
    createdBy: demoAdmin(),
  })
  return key
}

/** Whether the optional peer the MCP endpoint needs is installed. */
async function mcpInstalled(): Promise<boolean> {
  try {
    await import('@modelcontextprotocol/sdk/server/index.js')
    return true
  } catch {
    return false
  }
}

/** The lines printed once the server is up: where, the key, and requests to paste. */
function banner(options: {
  base: string
  store: string
  /** Said under the first line: where a default store keeps the data. */
  note: string | undefined
  key: string
  mcp: boolean
  demo: ReturnType<typeof createDemoData>
}): string[] {
  const { base, key, demo } = options
  const ticket = demo.tickets.find((t) => t.notes.length > 0) ?? demo.tickets[0]!
  const budget = demo.budgets![0]!
  const auth = `-H 'Authorization: Bearer ${key}'`
  return [
    `${BIN} listening on ${base} (store: ${options.store})`,
    ...(options.note === undefined ? [] : [options.note]),
    `Demo key (every scope): ${key}`,
    `Reference: ${base}/docs   OpenAPI: ${base}/openapi.json`,
    options.mcp
      ? `MCP for AI agents: claude mcp add --transport http demo ${base}/mcp ${auth.replace('-H', '--header')}`
      : `MCP for AI agents: npm install @modelcontextprotocol/sdk, then start again to serve ${base}/mcp`,
    'Try:',
    `curl -s ${auth} '${base}/tickets?limit=5&isClosed=false&sortColumn=priority_name'`,
    `curl -s ${auth} '${base}/tickets/${encodeURIComponent(ticket.ticketNumber)}?includeNotes=true&notesLimit=3'`,
    `curl -s ${auth} -H 'Content-Type: application/json' -X POST '${base}/budgets/${budget.id}/items' ` +
      `-d '{"type":"Software","description":"Endpoint protection",` +
      `"unitPrice":4.5,"quantity":40,"recurrence":"Monthly"}'`,
    'Ctrl-C stops the server.',
  ]
}

/** Stops on Ctrl-C or SIGTERM: no new connections, open ones closed, then the store; exit 0. */
function stopOnSignals(server: Server, store: Store): void {
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    console.log('Stopping...')
    server.close(
      () =>
        void store.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`Closing the store failed: ${error instanceof Error ? error.message : String(error)}`)
            process.exit(1)
          },
        ),
    )
    server.closeAllConnections()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/** Runs `serve`; resolves once the server is up (it then runs until a signal stops it). */
export async function serve(parsed: ParsedArgs): Promise<void> {
  const port = portOf(stringOption(parsed, 'port') ?? process.env.PORT ?? '3000')
  const host = stringOption(parsed, 'host') ?? process.env.HOST ?? '127.0.0.1'
  const spec = chooseStore(serveCommand, stringOption(parsed, 'store'), `sqlite:${DEFAULT_SQLITE_FILE}`)
  const { store } = await openStore(spec)
  const keys = createApiKeys(store)
  const mcp = await mcpInstalled()
  // `mcp: true` also serves the API to AI agents at {base}/mcp (docs/mcp.md), under the same keys.
  const api = createPublicApi({ store, keyResolver: keys.keyResolver, mcp })
  // Bounded header and request times: a slow client cannot hold sockets open for minutes.
  const server = createServer(nodeServerOptions, toNodeHandler(api))
  // The port is taken before anything is written: a second start beside a running one must not
  // revoke that one's key.
  try {
    await listen(server, port, host)
  } catch (error) {
    await store.close()
    throw error
  }
  stopOnSignals(server, store)
  const demo = createDemoData()
  await seedDemo(store, demo)
  const key = await demoKey(keys)
  const { address, family, port: bound } = server.address() as AddressInfo
  const base = `http://${family === 'IPv6' ? `[${address}]` : address}:${bound}/api/public/v1`
  const note =
    spec.kind === 'sqlite' && stringOption(parsed, 'store') === undefined && !process.env.DATABASE_URL
      ? `The data stays in ${spec.filename} (the default store; --store memory keeps nothing, ` +
        '--store sqlite:FILE or postgres://… picks another).'
      : undefined
  for (const line of banner({ base, store: describeStore(spec), note, key, mcp, demo })) console.log(line)
}
