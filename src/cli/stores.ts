/**
 * The CLI's `--store`: `memory`, `sqlite:FILE` or a `postgres://` URL (`?schema=NAME` puts every
 * table in that schema). A SQL store's drivers are optional peers of the package, so they are
 * imported only when that store is chosen, and a missing one is said as what to `npm install`.
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createMemoryStore, type Store } from 'tenant-public-api'
import { CliError, type CommandSpec, misuse } from './args.js'

/** A store named on the command line. */
export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'sqlite'; filename: string }
  | { kind: 'postgres'; connectionString: string; schema?: string; shown: string }

/** How `--store` is written, for messages. */
export const STORE_FORMS = 'memory, sqlite:FILE or postgres://USER@HOST:PORT/DB[?schema=NAME]'

/** The optional peers each SQL store needs. */
const PEERS = { sqlite: ['better-sqlite3', 'kysely'], postgres: ['pg', 'kysely'] } as const

/**
 * Reads a `--store` value (or `DATABASE_URL`) for `command`: a usage error for anything else.
 *
 * @example
 * parseStore(seedCommand, 'sqlite:./app.db') // { kind: 'sqlite', filename: '/home/me/app.db' }
 */
export function parseStore(command: CommandSpec, text: string): StoreSpec {
  if (text === 'memory') return { kind: 'memory' }
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length)
    if (file === '') throw misuse(command, '--store sqlite: needs a file name: sqlite:FILE')
    return { kind: 'sqlite', filename: resolve(file) }
  }
  if (/^postgres(?:ql)?:\/\//.test(text)) {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw misuse(command, '--store is not a valid postgres:// URL')
    }
    const schema = url.searchParams.get('schema') ?? undefined
    // `schema` is the store's option, not pg's: the connection string pg reads goes without it.
    url.searchParams.delete('schema')
    if (schema === '') throw misuse(command, '--store: ?schema= needs a name')
    return {
      kind: 'postgres',
      connectionString: url.href,
      ...(schema === undefined ? {} : { schema }),
      shown: shownUrl(url, schema),
    }
  }
  throw misuse(command, `--store must be ${STORE_FORMS}`)
}

/** A Postgres URL as printed: without its password or query. */
function shownUrl(url: URL, schema: string | undefined): string {
  const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`
  return `postgres://${user}${url.host}${url.pathname}${schema === undefined ? '' : ` (schema ${schema})`}`
}

/**
 * The store a command works on: `--store`, else `DATABASE_URL`, else `fallback` (a
 * usage error saying how to name one when there is none).
 */
export function chooseStore(command: CommandSpec, option: string | undefined, fallback?: string): StoreSpec {
  const text = option ?? (process.env.DATABASE_URL || undefined) ?? fallback
  if (text === undefined) throw misuse(command, `no store: pass --store (${STORE_FORMS}) or set DATABASE_URL`)
  return parseStore(command, text)
}

/** The store in words, for what a command prints. */
export function describeStore(spec: StoreSpec): string {
  if (spec.kind === 'memory') return 'memory (nothing is kept after it stops)'
  if (spec.kind === 'sqlite') return `SQLite file ${spec.filename}`
  return `Postgres ${spec.shown}`
}

/** The peer a module-not-found error names, if it is one of `peers`. */
function missingPeer(error: unknown, peers: readonly string[]): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined
  const message = String((error as Error).message)
  return peers.find((peer) => message.includes(`'${peer}'`) || message.includes(`"${peer}"`))
}

/** Runs `open`, saying a missing optional peer as the `npm install` line that adds the store's peers. */
async function withPeers<T>(kind: 'sqlite' | 'postgres', open: () => Promise<T>): Promise<T> {
  try {
    return await open()
  } catch (error) {
    const peers = PEERS[kind]
    const missing = missingPeer(error, peers)
    if (missing === undefined) throw error
    const name = kind === 'sqlite' ? 'SQLite' : 'Postgres'
    throw new CliError(
      `The ${name} store needs the optional peer dependencies ${peers.join(' and ')} (${missing} is missing): ` +
        `npm install ${peers.join(' ')}`,
    )
  }
}

/** What an opened store can do beyond the port: run its migrations (SQL stores). */
export interface OpenedStore {
  store: Store
  migrate?: () => Promise<void>
}

/**
 * Opens the store `spec` names, creating a SQLite file's folder when missing. `migrate` (default
 * true) runs a SQL store's migrations on opening, as its factory does.
 */
export async function openStore(spec: StoreSpec, options: { migrate?: boolean } = {}): Promise<OpenedStore> {
  try {
    return await open(spec, options.migrate ?? true)
  } catch (error) {
    if (error instanceof CliError) throw error
    // One line: what could not be opened, and why (a StoreUnavailableError's cause is the driver's reason).
    const cause = (error as { cause?: unknown }).cause
    const why = cause instanceof Error ? ` (${cause.message})` : ''
    throw new CliError(`Cannot open the store ${describeStore(spec)}: ${(error as Error).message}${why}`)
  }
}

/** {@link openStore} without the wording of its failures. */
async function open(spec: StoreSpec, migrate: boolean): Promise<OpenedStore> {
  if (spec.kind === 'memory') return { store: createMemoryStore() }
  if (spec.kind === 'sqlite') {
    mkdirSync(dirname(spec.filename), { recursive: true })
    const store = await withPeers('sqlite', async () => {
      const { createSqliteStore } = await import('tenant-public-api/sqlite')
      return createSqliteStore({ filename: spec.filename }, { migrate })
    })
    return { store, migrate: () => store.migrate() }
  }
  const store = await withPeers('postgres', async () => {
    const { createPostgresStore } = await import('tenant-public-api/postgres')
    const schema = spec.schema === undefined ? {} : { schema: spec.schema }
    return createPostgresStore({ connectionString: spec.connectionString, ...schema, max: 4 }, { migrate })
  })
  return { store, migrate: () => store.migrate() }
}

/** {@link chooseStore} for a command whose work must outlive it: memory is refused. */
export function persistentStore(command: CommandSpec, option: string | undefined): StoreSpec {
  const spec = chooseStore(command, option)
  if (spec.kind === 'memory')
    throw misuse(command, 'needs a store that outlives it: --store sqlite:FILE or postgres://…')
  return spec
}
