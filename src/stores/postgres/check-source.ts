/**
 * `createPostgresStore`'s source, checked before any connection (docs/stores.md). Fails at once,
 * naming the option, where pg would fail at the first query with a message about its startup packet
 * (a `connectionString` read from an unset environment variable is the usual case).
 */
export function checkSource(source: unknown): asserts source is object {
  if (typeof source !== 'object' || source === null)
    throw new TypeError('createPostgresStore needs { connectionString }, { pool } or { dialect }')
  const given = (['connectionString', 'pool', 'dialect'] as const).filter((key) => key in source)
  if (given.length !== 1) {
    const both = given.length > 1 ? `, not ${given.join(' and ')}` : ''
    throw new TypeError(`createPostgresStore needs exactly one of connectionString, pool or dialect${both}`)
  }
  if ('connectionString' in source) {
    const value: unknown = source.connectionString
    if (typeof value !== 'string' || value.trim() === '')
      throw new TypeError(
        `createPostgresStore: connectionString must be a connection string such as postgres://user@host:5432/db, not ${
          typeof value === 'string' ? 'an empty string' : String(value)
        }`,
      )
  }
  if ('pool' in source && typeof (source.pool as { connect?: unknown } | null)?.connect !== 'function')
    throw new TypeError('createPostgresStore: pool must be a pg Pool')
  if ('dialect' in source && typeof (source.dialect as { createDriver?: unknown } | null)?.createDriver !== 'function')
    throw new TypeError('createPostgresStore: dialect must be a Kysely Dialect')
}
