/**
 * The Postgres engine (engine.ts says what an engine decides): a write's statements chained into one,
 * prepared where their text repeats, U+0000 dropped from bound text, `LIKE` search served by
 * pg_trgm, and the driver errors that mean the server cannot be reached.
 */
import {
  OperationNodeTransformer,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely'
import type { Engine } from './engine.js'

function dropNul(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value
}

/** Drops U+0000 from every bound string: Postgres refuses it in text, and a 500 would follow. */
class DropNulPlugin implements KyselyPlugin {
  readonly #transformer = new (class extends OperationNodeTransformer {
    protected override transformValue(node: ValueNode): ValueNode {
      return typeof node.value === 'string' && node.value.includes('\u0000')
        ? { ...node, value: dropNul(node.value) }
        : node
    }
  })()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

/** Node error codes of a socket that could not connect or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
])

/** SQLSTATEs of an unreachable, restarting, overloaded or timed-out server. */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exceptions
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up)
    code === '53300' || // too_many_connections
    code === '57014' // query_canceled: statement_timeout
  )
}

/**
 * The comment that starts a Postgres statement worth preparing: a write's chained statement (the
 * change, the counter, the events), whose text repeats and whose every part finds its rows by key, so
 * a plan made once suits every run. The Postgres store sends such a statement, from its second run on
 * a connection, as a named prepared statement (`preparedStatements`, docs/stores.md): the server then
 * parses and plans it once per connection, not on every write (a rule update's statement spent about
 * a fifth of its time there). Reads are never marked: a plan made once for one tenant's page could
 * suit another tenant's badly.
 */
export const PREPARE = '/* prepare */ '

/**
 * Postgres (pg, or any Kysely Postgres dialect such as one over PGlite).
 *
 * @example
 * createSqlStore(new Kysely({ dialect: new PostgresDialect({ pool }) }), postgresEngine)
 */
export const postgresEngine: Engine = {
  name: 'postgres',
  inProcess: false,
  booleanType: 'boolean',
  realType: 'double precision',
  bigintType: 'bigint',
  textType: 'text COLLATE "C"',
  text: dropNul,
  plugins: [new DropNulPlugin()],
  bool: (value) => value,
  nowMs: () => sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`,
  writeTransaction: (db, fn) => db.transaction().execute(fn),
  chainWrites: async (ex, writes, named, last) => {
    const ctes = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`)
    ctes.push(sql`${sql.raw(named.name)} AS (${named.write})`)
    await sql`${sql.raw(PREPARE)}WITH ${sql.join(ctes)} ${last}`.execute(ex)
  },
  guardedWrites: async (db, guard, writes, named, last) => {
    const ctes = [
      sql`${sql.raw(guard.name)} AS (${guard.write})`,
      ...writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`),
      sql`${sql.raw(named.name)} AS (${named.write})`,
      sql`done AS (${last})`,
    ]
    const { rows } = await sql<{ n: unknown }>`${sql.raw(PREPARE)}WITH ${sql.join(ctes)}
      SELECT count(*) AS n FROM ${sql.raw(guard.name)}`.execute(db)
    return Number(rows[0]?.n) > 0
  },
  forUpdate: ' FOR UPDATE',
  skipLocked: (alias) => ` FOR UPDATE OF ${alias} SKIP LOCKED`,
  // Analysed after a load: on statistics older than the load, a tenant's read-back of its ids chose an
  // index by tenant and assignee and read every ticket of the tenant (bench/README.md#measurements-behind-the-code).
  bulkLoad: { before: [], after: [], analyze: true, rebuildIndexes: false },
  schemas: true,
  unionSeeks: true,
  // LIKE's default escape character is the backslash; pg_trgm's GIN index serves it for 3+ characters.
  contains: (column, term) => sql<boolean>`${sql.ref(column)} LIKE ${`%${escapeLike(term)}%`}`,
  isUnavailable: (error) => isUnavailablePostgres(error, 0),
}

/**
 * Messages of pg and pg-pool when a connection cannot be made, was lost, or gave no answer in time
 * (query_timeout, a pool's connect timeout, the client's own connect timeout).
 */
const POSTGRES_UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Connection ended',
    'not queryable',
    'connect ECONNREFUSED',
    'Query read timeout',
    '^timeout expired$',
  ].join('|'),
  'i',
)

/** The error, or what it wraps (pg-pool's connect timeout wraps the socket's error), means 503. */
function isUnavailablePostgres(error: unknown, depth: number): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null
  if (e === null || typeof e !== 'object') return false
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || isUnavailableSqlState(e.code))) return true
  if (typeof e.message === 'string' && POSTGRES_UNAVAILABLE_MESSAGE.test(e.message)) return true
  return depth < 4 && e.cause !== undefined && isUnavailablePostgres(e.cause, depth + 1)
}

/** Escapes `%`, `_` and `\` so that a term matches itself inside `LIKE ... ESCAPE '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}
