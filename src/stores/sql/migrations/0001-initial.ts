/**
 * Migration 0001, frozen: the schema as release 0.1.0 created it. Never edit a shipped migration
 * (databases that ran it would never see the edit, new ones would differ from them): add the next
 * one to `index.ts`. This file reads nothing that may change later (not the model, not the
 * engines): its tables, types and indexes are written out here.
 *
 * Every statement is idempotent (`IF NOT EXISTS`), so a migration interrupted half-way, or run by
 * two processes at once on SQLite (where Kysely takes no migration lock), simply runs again.
 * Tables hold one row per record: `tenant_id`, `id`, the record's JSON (`doc`) and, beside it,
 * copies of the fields that lists filter, sort or search on, with indexes that lead with the tenant.
 */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'

/** Names a table (or index) of the store, schema-qualified on Postgres when a schema is set. */
export type TableNamer = (name: string) => string

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

/** The ticket list's sort columns in 0.1.0; each gets an ascending and a descending index. */
const TICKET_SORT_SQL = {
  created_date: 'created_at',
  updated_date: 'updated_at',
  title: 'title',
  status_name: 'status',
  priority_name: 'priority',
  company_name: 'company_name',
  assigned_to: 'assigned_to',
  days_open: 'days_open',
} as const

interface TableSpec {
  name: string
  /** Column name → `T` text, `R` real, `I` integer, `B` boolean, `L` bigint; `!` suffix: NOT NULL. */
  columns: Record<string, string>
  primaryKey: string[]
  /** Each index: its columns, e.g. `['tenant_id', 'name', 'id']`; `col DESC` allowed. */
  indexes?: string[][]
}

const doc = (name: string, extra: Record<string, string> = {}, indexes: string[][] = []): TableSpec => ({
  name,
  columns: { tenant_id: 'T!', id: 'T!', ...extra, doc: 'T!' },
  primaryKey: ['tenant_id', 'id'],
  indexes,
})

/** Ascending and descending sort indexes (ties by id) for each column. */
const sorts = (...columns: string[]): string[][] =>
  columns.flatMap((c) => [
    ['tenant_id', c, 'id'],
    ['tenant_id', `${c} DESC`, 'id'],
  ])

const TABLES: TableSpec[] = [
  {
    name: 'tickets',
    columns: {
      tenant_id: 'T!',
      id: 'T!',
      ticket_number: 'T!',
      title: 'T!',
      status: 'T',
      priority: 'T',
      company_name: 'T',
      assigned_to: 'T',
      created_at: 'T!',
      updated_at: 'T',
      days_open: 'R',
      company_id: 'T',
      provider: 'T!',
      is_closed: 'B!',
      title_f: 'T!',
      status_f: 'T',
      priority_f: 'T',
      assigned_to_f: 'T',
      doc: 'T!',
      notes: 'T!',
    },
    primaryKey: ['tenant_id', 'id'],
    indexes: [
      ['tenant_id', 'ticket_number'],
      ...sorts(...Object.values(TICKET_SORT_SQL)),
      // A filter and the default sort together: a selective filter reads only its own rows.
      ['tenant_id', 'company_id', 'created_at DESC', 'id'],
      ['tenant_id', 'status_f'],
      ['tenant_id', 'priority_f'],
      ['tenant_id', 'assigned_to_f'],
    ],
  },
  doc('budgets'),
  {
    name: 'budget_line_items',
    columns: { tenant_id: 'T!', budget_id: 'T!', seq: 'I!', doc: 'T!' },
    primaryKey: ['tenant_id', 'budget_id', 'seq'],
  },
  doc('automation_rules', { version: 'I!' }),
  doc('reports', { version: 'I!' }),
  doc('report_types'),
  doc(
    'report_templates',
    { name: 'T!', created_at: 'T!', updated_at: 'T!', report_type_id: 'T', is_shared: 'B!', structure: 'T!' },
    [...sorts('name', 'created_at', 'updated_at'), ['tenant_id', 'report_type_id']],
  ),
  doc(
    'compliance_templates',
    {
      title: 'T!',
      created_at: 'T!',
      updated_at: 'T!',
      priority: 'T',
      criticality: 'R',
      group_id: 'T',
      approval_status: 'T!',
      check_scope: 'T!',
      title_f: 'T!',
    },
    [...sorts('title', 'created_at', 'updated_at', 'priority', 'criticality'), ['tenant_id', 'group_id']],
  ),
  doc('compliance_checks'),
  doc('training_courses'),
  doc('training_enrollments', { enrolled_at: 'T!', course_id: 'T!', user_id: 'T!', company_id: 'T', status: 'T!' }, [
    ['tenant_id', 'enrolled_at DESC', 'id'],
    ['tenant_id', 'course_id'],
    ['tenant_id', 'user_id'],
    ['tenant_id', 'company_id'],
  ]),
  doc(
    'users',
    {
      full_name: 'T',
      email: 'T!',
      status: 'T!',
      created_at: 'T!',
      last_login: 'T',
      role_id: 'T',
      company_id: 'T',
      is_primary_admin: 'B!',
      full_name_f: 'T',
      email_f: 'T!',
    },
    [
      ...sorts('full_name', 'email', 'status', 'created_at', 'last_login'),
      ['tenant_id', 'role_id'],
      ['tenant_id', 'company_id'],
    ],
  ),
  doc('companies', { name: 'T!', created_at: 'T!', updated_at: 'T!' }, sorts('name', 'created_at', 'updated_at')),
  doc('meeting_types', { order_index: 'R!', name: 'T!' }, [['tenant_id', 'order_index', 'name', 'id']]),
  doc('goals'),
  doc('nps_surveys'),
  doc('planner_item_types'),
  {
    name: 'idempotency_keys',
    columns: { tenant_id: 'T!', key: 'T!', fingerprint: 'T!', started_at: 'L!', response: 'T' },
    primaryKey: ['tenant_id', 'key'],
    indexes: [['started_at']],
  },
  { name: 'ticket_generations', columns: { tenant_id: 'T!', generation: 'L!' }, primaryKey: ['tenant_id'] },
  {
    name: 'rate_limits',
    columns: { key: 'T!', reset_at: 'L!', count: 'L!' },
    primaryKey: ['key'],
    indexes: [['reset_at']],
  },
]

/** The engines' column types as this migration wrote them (copied here: engines may change, this may not). */
const TYPES: Record<EngineName, Record<string, string>> = {
  sqlite: { T: 'TEXT', R: 'REAL', I: 'integer', B: 'INTEGER', L: 'INTEGER' },
  postgres: { T: 'text COLLATE "C"', R: 'double precision', I: 'integer', B: 'boolean', L: 'bigint' },
}

function columnType(engine: EngineName, code: string): string {
  const base = TYPES[engine][code.replace('!', '')]
  if (base === undefined) throw new Error(`Unknown column type ${code}`)
  return code.endsWith('!') ? `${base} NOT NULL` : base
}

function indexColumn(engine: EngineName, column: string): string {
  const [name = '', direction] = column.split(' ')
  // Postgres puts nulls first in a descending index; the API wants them last both ways.
  if (engine === 'postgres' && name !== 'id' && name !== 'tenant_id')
    return `${quote(name)} ${direction ?? 'ASC'} NULLS LAST`
  return direction ? `${quote(name)} ${direction}` : quote(name)
}

function indexStatement(
  engine: EngineName,
  table: TableNamer,
  indexPrefix: string,
  spec: TableSpec,
  index: string[],
): { name: string; create: string } {
  const name = `${indexPrefix}${spec.name}_${index.map((c) => c.replace(' DESC', '_desc')).join('_')}`
  const columns = index.map((c) => indexColumn(engine, c)).join(', ')
  return { name, create: `CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${table(spec.name)} (${columns})` }
}

/**
 * The secondary indexes of the tickets table and its FTS insert trigger (SQLite), to drop and
 * rebuild around a bulk load (the FTS index is rebuilt from the table in one pass):
 * one sort per index afterwards is far faster than a million random inserts into each.
 *
 * @example
 * const { drop, create } = ticketIndexStatements('sqlite', quote)
 */
export function ticketIndexStatements(engine: EngineName, table: TableNamer): { drop: string[]; create: string[] } {
  const spec = TABLES.find((s) => s.name === 'tickets')!
  const all = (spec.indexes ?? []).map((index) => indexStatement(engine, table, '', spec, index))
  return {
    drop: [...all.map((i) => `DROP INDEX IF EXISTS ${quote(i.name)}`), 'DROP TRIGGER IF EXISTS tickets_fts_insert'],
    create: [
      ...all.map((i) => i.create),
      `INSERT INTO ticket_fts(ticket_fts) VALUES ('rebuild')`,
      SQLITE_FTS_INSERT_TRIGGER,
    ],
  }
}

/** Keeps the FTS index in step with inserted tickets (dropped during a bulk load, then rebuilt). */
export const SQLITE_FTS_INSERT_TRIGGER =
  'CREATE TRIGGER IF NOT EXISTS tickets_fts_insert AFTER INSERT ON tickets BEGIN ' +
  'INSERT INTO ticket_fts(rowid, title_f) VALUES (new.rowid, new.title_f); END'

/** The DDL of the first migration, for `engine`, with tables named by `table`. */
function initialStatements(
  engine: EngineName,
  table: TableNamer,
  indexPrefix: string,
  trigramOps: string | null,
): string[] {
  const out: string[] = []
  for (const spec of TABLES) {
    const columns = Object.entries(spec.columns).map(([name, code]) => `${quote(name)} ${columnType(engine, code)}`)
    const key = spec.primaryKey.map(quote).join(', ')
    out.push(`CREATE TABLE IF NOT EXISTS ${table(spec.name)} (${columns.join(', ')}, PRIMARY KEY (${key}))`)
    for (const index of spec.indexes ?? []) out.push(indexStatement(engine, table, indexPrefix, spec, index).create)
  }
  if (engine === 'sqlite') {
    // An external-content FTS5 trigram index over the folded titles: substring search without a scan.
    out.push(
      'CREATE VIRTUAL TABLE IF NOT EXISTS ticket_fts USING fts5(' +
        "title_f, content='tickets', content_rowid='rowid', tokenize='trigram case_sensitive 1')",
    )
    out.push(SQLITE_FTS_INSERT_TRIGGER)
    out.push(
      `CREATE TRIGGER IF NOT EXISTS tickets_fts_update AFTER UPDATE OF title_f ON tickets BEGIN ` +
        `INSERT INTO ticket_fts(ticket_fts, rowid, title_f) VALUES ('delete', old.rowid, old.title_f); ` +
        `INSERT INTO ticket_fts(rowid, title_f) VALUES (new.rowid, new.title_f); END`,
    )
    out.push(
      'CREATE TRIGGER IF NOT EXISTS tickets_fts_delete AFTER DELETE ON tickets BEGIN ' +
        "INSERT INTO ticket_fts(ticket_fts, rowid, title_f) VALUES ('delete', old.rowid, old.title_f); END",
    )
  } else if (trigramOps !== null) {
    const name = quote(`${indexPrefix}tickets_title_f_trgm`)
    out.push(`CREATE INDEX IF NOT EXISTS ${name} ON ${table('tickets')} USING gin (title_f ${trigramOps})`)
  }
  return out
}

/** Installs pg_trgm when it can and returns its operator class, qualified; null when unavailable. */
async function trigramOperatorClass(db: Kysely<unknown>): Promise<string | null> {
  const find = async () =>
    (
      await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
        JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]
  let found = await find()
  if (found === undefined) {
    try {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
    } catch {
      // Another store created it at the same moment, or this role may not: look again below.
    }
    found = await find()
  }
  return found === undefined ? null : `${quote(found.schema)}.gin_trgm_ops`
}

/** The SQLite FTS5 table over the folded ticket titles that this migration creates. */
export const TICKET_FTS = { table: 'ticket_fts', column: 'title_f' } as const

/**
 * Migration 0001: every table, index and (SQLite) FTS5 trigram index, or (Postgres) pg_trgm
 * index when the extension can be had.
 *
 * @example
 * await initial.up(db, { engine: 'postgres', table: (n) => `"tenant_a"."${n}"` })
 */
export const initial = {
  name: '0001_initial',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    const trigramOps = context.engine === 'postgres' ? await trigramOperatorClass(db) : null
    // Index names are per schema on Postgres, global per file on SQLite: no prefix needed either way.
    for (const statement of initialStatements(context.engine, context.table, '', trigramOps))
      await sql.raw(statement).execute(db)
  },
}
