/**
 * A Kysely dialect over PGlite (embedded, WASM Postgres), for tests on machines without a server.
 * PGlite has one connection: queries queue on a mutex, and a transaction holds it to the end.
 */
import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiled.sql, [...compiled.parameters])
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    }
  }

  // biome-ignore lint/correctness/useYield: Kysely's interface wants a generator; this one only refuses
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect: streaming is not supported')
  }
}

class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve()
  readonly #connection: PGliteConnection

  constructor(private readonly pg: PGlite) {
    this.#connection = new PGliteConnection(pg)
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const previous = this.#queue
    this.#queue = new Promise<void>((resolve) => (release = resolve))
    await previous
    this.#releases.push(release)
    return this.#connection
  }

  readonly #releases: Array<() => void> = []

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'))
  }

  async releaseConnection(): Promise<void> {
    this.#releases.shift()?.()
  }

  async destroy(): Promise<void> {
    await this.pg.close()
  }
}

/**
 * A Kysely dialect that runs every query on `pg`.
 *
 * @example
 * const pg = await PGlite.create({ extensions: { pg_trgm } })
 * const store = await createPostgresStore({ dialect: pgliteDialect(pg) })
 */
export function pgliteDialect(pg: PGlite, options: { closeOnDestroy?: boolean } = {}): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => {
      const driver = new PGliteDriver(pg)
      if (options.closeOnDestroy === false) driver.destroy = async () => {}
      return driver
    },
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  }
}
