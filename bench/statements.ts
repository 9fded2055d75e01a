/**
 * `npm run bench statements`: why the SQL store compiles its hot statements once (`SqlContext.compiled`,
 * ARCHITECTURE.md "One way to write SQL"). On the SQLite store's own Kysely instance (its statement
 * cache included), for the insert of 100 events (500 values) and a seed batch of 750 rows of 40 values
 * (30,000): Kysely's compile of the statement's `sql` template, the compile of its one-node-per-value
 * form (`compiled.sql(values)`: the template `ctx.compiled` gives for a statement inside a larger
 * one), and the statement run three ways: compiled once (`compiled.rows`), as raw text with its values
 * (what `ctx.query` did before), and as the `sql` template compiled on every run. Rounds
 * (`BENCH_ROUNDS`, default 7) in alternating order; medians.
 */
import { sql } from 'kysely'
import { CompiledQuery } from 'kysely'
import { createSqlContext } from '../src/stores/sql/context.js'
import { sqlStoreInternals } from '../src/stores/sql/sql-store.js'
import { sqliteEngine } from '../src/stores/sql/sqlite-engine.js'
import { createSqliteStore } from '../src/stores/sqlite/index.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const store = await createSqliteStore({ filename: ':memory:' })
const { db } = sqlStoreInternals(store)
const ctx = createSqlContext(db, sqliteEngine, undefined)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
/** Microseconds per call of `fn`, over `n` calls. */
async function time(n: number, fn: () => unknown): Promise<number> {
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await fn()
  return Number(process.hrtime.bigint() - start) / n / 1000
}

for (const [rows, width, calls] of [
  [100, 5, 100],
  [750, 40, 5],
] as const) {
  const table = sql.raw(`t${width}`)
  const columns = Array.from({ length: width }, (_, c) => `c${c} TEXT`).join(', ')
  await sql`CREATE TABLE ${table} (${sql.raw(columns)})`.execute(db)
  const values = Array.from({ length: rows * width }, (_, i) => `value ${i}`)
  const tuples = (p: readonly unknown[]) =>
    sql.join(Array.from({ length: rows }, (_, r) => sql`(${sql.join(p.slice(r * width, (r + 1) * width))})`))
  const template = () => sql`INSERT INTO ${table} VALUES ${tuples(values)}`
  const compiled = ctx.compiled(rows * width, (p) => sql`INSERT INTO ${table} VALUES ${tuples(p)}`)
  const text = template().compile(db).sql
  if (compiled.sql(values).compile(db).sql !== text) throw new Error('The compiled text differs from the template')
  const cases = {
    'compile its sql template': () => template().compile(db),
    'compile its one-node-per-value form': () => compiled.sql(values).compile(db),
    'run it compiled once': () => compiled.rows(values),
    // As `ctx.query` did: its values bound afresh (better-sqlite3 binds an array it was given before faster).
    'run it as raw text': () => db.executeQuery(CompiledQuery.raw(text, values.map(sqliteEngine.driver.text))),
    'run its sql template': () => template().execute(db),
  }
  const results = new Map<string, number[]>()
  for (let round = 0; round < ROUNDS; round++)
    for (const [label, fn] of round % 2 === 0 ? Object.entries(cases) : Object.entries(cases).reverse()) {
      await time(2, fn)
      // The compiles leave much garbage: collected before each case, not during the next one.
      ;(globalThis as { gc?: () => void }).gc?.()
      results.set(label, [...(results.get(label) ?? []), await time(calls, fn)])
      await sql`DELETE FROM ${table}`.execute(db)
    }
  const once = median(results.get('run it compiled once')!)
  console.log(`${rows} rows of ${width} values, medians of ${ROUNDS} rounds:`)
  for (const [label, xs] of results)
    console.log(`  ${label.padEnd(38)} ${median(xs).toFixed(0).padStart(7)} µs  ${(median(xs) / once).toFixed(2)}x`)
}
await store.close()
