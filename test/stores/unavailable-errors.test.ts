/**
 * Which driver errors mean "the database cannot be reached now" (→ 503) and which are bugs or bad
 * data (→ 500): the engines' `isUnavailable`, on the errors pg, pg-pool, the Postgres store's own
 * timeouts and better-sqlite3 actually throw.
 */
import { describe, expect, it } from 'vitest'
import { postgresEngine } from '../../src/stores/sql/postgres-engine.js'
import { sqliteEngine } from '../../src/stores/sql/sqlite-engine.js'

const coded = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('postgresEngine.driver.isUnavailable', () => {
  it.each([
    ['the store’s query timeout', coded('No answer to a statement within 1000 ms', 'ETIMEDOUT')],
    ['a statement on an abandoned connection', coded('Connection abandoned after an earlier failure', 'ECONNABORTED')],
    ['pg-pool: no free slot in time', new Error('timeout exceeded when trying to connect')],
    [
      'pg-pool: a new connection not made in time',
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated') }),
    ],
    ['pg: its own connect timeout', new Error('timeout expired')],
    ['pg: query_timeout', new Error('Query read timeout')],
    ['pg: the server hung up', new Error('Connection terminated unexpectedly')],
    ['a refused connection', coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')],
    ['statement_timeout', coded('canceling statement due to statement timeout', '57014')],
    ['the server shutting down', coded('terminating connection due to administrator command', '57P01')],
    ['a wrapped socket error', new Error('lookup failed', { cause: coded('getaddrinfo EAI_AGAIN db', 'EAI_AGAIN') })],
  ])('%s → 503', (_, error) => {
    expect(postgresEngine.driver.isUnavailable(error)).toBe(true)
  })

  it.each([
    ['a unique violation', coded('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', coded('syntax error at or near "SELEC"', '42601')],
    ['a plain bug', new TypeError('Cannot read properties of undefined')],
    ['a bug wrapping a bug', new Error('outer', { cause: new RangeError('inner') })],
    ['not an error', 'timeout expired soon'],
    ['nothing', null],
  ])('%s → not 503', (_, error) => {
    expect(postgresEngine.driver.isUnavailable(error)).toBe(false)
  })
})

describe('sqliteEngine.driver.isUnavailable', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_TIMEOUT',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_LOCKED_SHAREDCACHE',
    'SQLITE_PROTOCOL',
  ])('%s → 503', (code) => {
    expect(sqliteEngine.driver.isUnavailable(coded('database is locked', code))).toBe(true)
  })

  it.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISMATCH'])('%s → not 503', (code) => {
    expect(sqliteEngine.driver.isUnavailable(coded('no', code))).toBe(false)
  })
})
