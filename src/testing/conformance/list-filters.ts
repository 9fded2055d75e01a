/**
 * Every filter of every list, with the reference's statement of what it keeps: cases derived from each
 * list's definition (every filter parameter of its surface, with values its fixture rows hold, compared as
 * the filter's op says on the column its definition reads), and the hand-written cases the fixtures were
 * made for: search with `%`, `_` and `\` taken literally and case folded, ids in any case, enums,
 * booleans, dates and combinations.
 */
import * as v from 'valibot'
import type { FilterOp } from '../../model/collection.js'
import type { ListParams } from '../../model/list-surface.js'
import { columnValue, defaultOrder, listRows, nested, type ListMethod, type Value } from './list-sorts.js'
import { byCodePoint, fold, type Row } from './reference.js'
import { READ_LISTS, type ReadList } from './store-calls.js'

/** One filter query and the reference's statement of what it keeps. */
export interface FilterCase {
  query: string
  matches: (row: Row) => boolean
  /** When given, the titles/names the filter must return, whatever the order. */
  exactly?: string[]
}

/** A list's filter cases, with what the checks read of the list. */
export interface FilteredList {
  path: string
  method: ListMethod
  rows: () => Row[]
  defaultOrder: (rows: Row[]) => Row[]
  label: (row: Row) => string
  cases: FilterCase[]
}

const ticketTitle = (row: Row) => row.title as string

/**
 * The hand-written cases of the lists, by list operation: what the fixtures were made to show (search
 * escaping, case folding, ids in any case, date bounds, combinations), with the records each must return.
 * Every filter of every list also gets cases derived from its definition ({@link FILTERS}).
 */
const WRITTEN: Partial<Record<ListMethod, { label: (row: Row) => string; cases: FilterCase[] }>> = {
  listTickets: {
    label: ticketTitle,
    cases: [
      {
        query: 'search=PRINTER',
        matches: (r) => fold(ticketTitle(r)).includes('printer'),
        exactly: ['Printer jam', 'printer jam', 'Zebra label printer'],
      },
      { query: 'search=%25', matches: (r) => ticketTitle(r).includes('%'), exactly: ['100% CPU usage'] },
      { query: 'search=100%25', matches: (r) => ticketTitle(r).includes('100%'), exactly: ['100% CPU usage'] },
      { query: 'search=_', matches: (r) => ticketTitle(r).includes('_'), exactly: ['snake_case field'] },
      {
        query: 'search=snake_case',
        matches: (r) => ticketTitle(r).includes('snake_case'),
        exactly: ['snake_case field'],
      },
      { query: 'search=%5C', matches: (r) => ticketTitle(r).includes('\\'), exactly: ['path C:\\temp broken'] },
      {
        query: 'search=C%3A%5Ctemp',
        matches: (r) => ticketTitle(r).includes('C:\\temp'),
        exactly: ['path C:\\temp broken'],
      },
      { query: 'search=nothing-matches-this', matches: () => false, exactly: [] },
      {
        query: `companyId=${'aaaaaaaa-0001-4000-8000-000000000001'}`,
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000001',
      },
      {
        query: `companyId=${'AAAAAAAA-0001-4000-8000-000000000004'}`,
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000004',
      },
      { query: 'status=open', matches: (r) => fold(String(r.status)) === 'open' },
      { query: 'status=OPEN', matches: (r) => fold(String(r.status)) === 'open' },
      { query: 'status=in%20progress', matches: (r) => r.status === 'In Progress', exactly: ['alpha server down'] },
      { query: 'priority=HIGH', matches: (r) => fold(String(r.priority)) === 'high' },
      { query: 'assignedTo=ada%20LOVELACE', matches: (r) => fold(String(r.assignedTo)) === 'ada lovelace' },
      {
        query: 'assignedTo=ada',
        matches: (r) => fold(String(r.assignedTo)) === 'ada',
        exactly: ['Zebra label printer'],
      },
      { query: 'isClosed=true', matches: (r) => r.isClosed === true },
      { query: 'isClosed=false', matches: (r) => r.isClosed === false },
      { query: 'provider=psa_c', matches: (r) => r.provider === 'psa_c' },
      {
        query: 'dateFrom=2024-01-10T09:00:00.000Z',
        matches: (r) => (r.createdAt as string) >= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateTo=2024-01-10T09:00:00.000Z',
        matches: (r) => (r.createdAt as string) <= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-10T09:00:00Z&dateTo=2024-01-10T09:00:00Z',
        matches: (r) => r.createdAt === '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-10T10:00:00%2B01:00',
        matches: (r) => (r.createdAt as string) >= '2024-01-10T09:00:00.000Z',
      },
      {
        query: 'dateFrom=2024-01-12&dateTo=2024-01-12',
        matches: (r) => (r.createdAt as string).startsWith('2024-01-12'),
        exactly: ['Edge: start of day', 'Edge: end of day'],
      },
      {
        query: 'dateTo=2024-01-08',
        matches: (r) => (r.createdAt as string) < '2024-01-09',
        exactly: ['Mail delay', 'Mail delay', 'Mail delay', 'path C:\\temp broken', 'path C:/temp broken'],
      },
      {
        query: 'status=open&provider=psa_a&isClosed=false',
        matches: (r) => fold(String(r.status)) === 'open' && r.provider === 'psa_a' && r.isClosed === false,
      },
    ],
  },
  listUsers: {
    label: (r) => r.email as string,
    cases: [
      {
        query: 'search=ADA',
        matches: (r) => fold(`${r.fullName ?? ''}`).includes('ada') || fold(r.email as string).includes('ada'),
      },
      {
        query: 'search=grace%40example',
        matches: (r) => fold(r.email as string).includes('grace@example'),
        exactly: ['GRACE@EXAMPLE.COM'],
      },
      {
        query: 'search=zola',
        matches: (r) => fold(`${r.fullName ?? ''}`).includes('zola'),
        exactly: ['emile@example.com'],
      },
      {
        query: 'search=%25',
        matches: (r) => `${r.fullName ?? ''}${r.email as string}`.includes('%'),
        exactly: ['percent@example.com'],
      },
      {
        query: 'search=_',
        matches: (r) => `${r.fullName ?? ''}${r.email as string}`.includes('_'),
        exactly: ['under@example.com'],
      },
      { query: 'search=%5C', matches: (r) => `${r.fullName ?? ''}`.includes('\\'), exactly: ['back@example.com'] },
      { query: 'status=pending', matches: (r) => r.status === 'pending' },
      {
        query: 'roleId=aaaaaaaa-0004-4000-8000-000000000001',
        matches: (r) => nested('role', 'id')(r) === 'aaaaaaaa-0004-4000-8000-000000000001',
      },
      {
        query: 'companyId=aaaaaaaa-0001-4000-8000-000000000002',
        matches: (r) => nested('company', 'id')(r) === 'aaaaaaaa-0001-4000-8000-000000000002',
      },
      { query: 'isPrimaryAdmin=true', matches: (r) => r.isPrimaryAdmin === true, exactly: ['ada@example.com'] },
      { query: 'isPrimaryAdmin=false', matches: (r) => r.isPrimaryAdmin === false },
      {
        query: 'status=active&search=under',
        matches: (r) =>
          r.status === 'active' && `${fold(`${r.fullName ?? ''}`)}|${fold(r.email as string)}`.includes('under'),
      },
    ],
  },
  listComplianceTemplates: {
    label: (r) => r.title as string,
    cases: [
      {
        query: 'search=BACKUPS',
        matches: (r) => fold(r.title as string).includes('backups'),
        exactly: ['Backups verified', 'backups verified'],
      },
      { query: 'search=%25', matches: (r) => (r.title as string).includes('%'), exactly: ['100% patched'] },
      { query: 'search=_', matches: (r) => (r.title as string).includes('_'), exactly: ['key_rotation'] },
      { query: 'search=%5C', matches: (r) => (r.title as string).includes('\\'), exactly: ['C:\\Windows hardened'] },
      {
        query: 'groupId=aaaaaaaa-0006-4000-8000-000000000001',
        matches: (r) => r.groupId === 'aaaaaaaa-0006-4000-8000-000000000001',
      },
      { query: 'approvalStatus=draft', matches: (r) => r.approvalStatus === 'draft' },
      { query: 'checkScope=device', matches: (r) => r.checkScope === 'device' },
      {
        query: 'checkScope=device&approvalStatus=approved&search=patched',
        matches: (r) =>
          r.checkScope === 'device' && r.approvalStatus === 'approved' && fold(r.title as string).includes('patched'),
      },
    ],
  },
  listReportTemplates: {
    label: (r) => r.name as string,
    cases: [
      {
        query: 'reportTypeId=aaaaaaaa-0009-4000-8000-000000000001',
        matches: (r) => r.reportTypeId === 'aaaaaaaa-0009-4000-8000-000000000001',
      },
      { query: 'isShared=true', matches: (r) => r.isShared === true },
      { query: 'isShared=false', matches: (r) => r.isShared === false },
      {
        query: 'isShared=true&reportTypeId=aaaaaaaa-0009-4000-8000-000000000002',
        matches: (r) => r.isShared === true && r.reportTypeId === 'aaaaaaaa-0009-4000-8000-000000000002',
      },
    ],
  },
  listTrainingEnrollments: {
    label: (r) => r.id,
    cases: [
      {
        query: 'courseId=aaaaaaaa-000b-4000-8000-000000000001',
        matches: (r) => nested('course', 'id')(r) === 'aaaaaaaa-000b-4000-8000-000000000001',
      },
      {
        query: 'userId=aaaaaaaa-0003-4000-8000-000000000001',
        matches: (r) => nested('user', 'id')(r) === 'aaaaaaaa-0003-4000-8000-000000000001',
      },
      {
        query: 'companyId=aaaaaaaa-0001-4000-8000-000000000001',
        matches: (r) => r.companyId === 'aaaaaaaa-0001-4000-8000-000000000001',
      },
      { query: 'status=not_started', matches: (r) => r.status === 'not_started' },
      {
        query: 'status=completed&courseId=aaaaaaaa-000b-4000-8000-000000000002',
        matches: (r) =>
          r.status === 'completed' && nested('course', 'id')(r) === 'aaaaaaaa-000b-4000-8000-000000000002',
      },
    ],
  },
}

/** Whether a column's value `x` passes filter `op` with `value` (a null column never matches). */
function passes(op: FilterOp, x: Value, value: Value): boolean {
  if (x === null || x === undefined) return false
  if (op === 'equals') return x === value
  if (op === 'equalsFolded') return fold(String(x)) === fold(String(value))
  const c = typeof x === 'number' && typeof value === 'number' ? x - value : byCodePoint(String(x), String(value))
  return op === 'atLeast' ? c >= 0 : c <= 0
}

/**
 * The cases of one filter parameter derived from its definition: for the smallest and the largest value its
 * column holds in the fixture rows (the value given as the query parses it), the rows whose column passes.
 * Only values that keep some rows and drop others make a case; a filter without one is an error of the
 * fixtures, which must make every filter meaningful.
 */
function casesOf(list: ReadList, param: string, rows: readonly Row[]): FilterCase[] {
  const params: ListParams = list.collection.list.params
  const entry = params[param]
  if (entry?.kind !== 'filter') return []
  const { column, op } = entry.filter
  const read = columnValue(list.collection, column)
  const values = [...new Set(rows.map(read))].filter((x) => x !== null && x !== undefined)
  values.sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : byCodePoint(String(a), String(b))))
  const made = values.flatMap((value): FilterCase[] => {
    const parsed = v.safeParse(list.operation.query!, { [param]: String(value) })
    if (!parsed.success || !passes(op, (parsed.output as Record<string, Value>)[param], value)) return []
    const matches = (row: Row) => passes(op, read(row), value)
    const kept = rows.filter(matches).length
    return kept > 0 && kept < rows.length ? [{ query: `${param}=${encodeURIComponent(String(value))}`, matches }] : []
  })
  if (made.length === 0) throw new Error(`${list.method}: no fixture value makes filter ${param} keep some rows only`)
  return made.length === 1 ? made : [made[0]!, made.at(-1)!]
}

/**
 * Every filter of every list of the registry, checked against the reference: the cases derived from its
 * definition, then the hand-written ones.
 *
 * @example
 * FILTERS.tickets.cases.map((c) => c.query) // ['companyId=…', …, 'search=PRINTER', …]
 */
export const FILTERS: Record<string, FilteredList> = Object.fromEntries(
  READ_LISTS.flatMap((list): Array<[string, FilteredList]> => {
    const rows = listRows(list)
    const written = WRITTEN[list.method]
    const queries = new Set(written?.cases.map((c) => c.query))
    const derived = Object.keys(list.collection.list.params)
      .flatMap((param) => casesOf(list, param, rows()))
      .filter((c) => !queries.has(c.query))
    const cases = [...derived, ...(written?.cases ?? [])]
    if (cases.length === 0) return []
    return [
      [
        list.collection.name,
        {
          path: list.operation.path,
          method: list.method,
          rows,
          defaultOrder: defaultOrder(list.method),
          label: written?.label ?? ((row) => row.id),
          cases,
        },
      ],
    ]
  }),
)
