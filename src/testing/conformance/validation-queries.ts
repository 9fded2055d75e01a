/**
 * The query validation cases: one past each bound of every list (page, limit, lengths, enums, ids,
 * dates, booleans, repeated parameters) rejected, and each bound itself accepted. Every parameter of
 * every collection's list gets its cases from its list surface (the JSON Schema its parser states, and
 * the sort names and direction), beside the written cases below.
 */
import { type ListParams, SORT_PARAMS } from '../../model/list-surface.js'
import { operations } from '../../operations/index.js'
import { hasIdParam, isPageList } from './samples.js'
import { READ_LISTS, type ReadList } from './store-calls.js'
import { chars, UNKNOWN_UUID } from './validation-values.js'

/** A rejected query: its path, its query and the field the error names (null: any). */
export type QueryCase = [path: string, query: string, field: string | string[] | null]

/** Lists and what one past each of their bounds is. */
const LIST_PATHS = operations
  .filter((operation) => operation.method === 'GET' && !hasIdParam(operation))
  .map((operation) => operation.path)

/** The lists paged by `page` (not the events feed, which refuses `page` as unknown). */
const PAGE_LIST_PATHS = operations.filter(isPageList).map((operation) => operation.path)

/** The JSON Schema a query parameter's parser states (src/model/shared.ts), as the OpenAPI document shows it. */
interface ParamJson {
  type?: string
  format?: string
  enum?: string[]
  maxLength?: number
  anyOf?: unknown[]
}

/** The JSON Schema of a list parameter's parser (what the OpenAPI generator reads). */
function paramJson(list: ReadList, name: string): ParamJson {
  const params: ListParams = list.collection.list.params
  const param = params[name]
  const schema = param === undefined ? undefined : param.kind === 'other' ? param.entry : param.schema
  const pipe = (schema as { pipe?: Array<{ type: string; metadata?: { param?: ParamJson } }> } | undefined)?.pipe
  return pipe?.find((item) => item.type === 'metadata')?.metadata?.param ?? {}
}

/** One value of each kind a parameter's schema refuses (a 400 on it), and one at its bound it accepts. */
function parameterCases(json: ParamJson): { rejected: string[]; accepted: string[] } {
  if (json.format === 'uuid') return { rejected: ['not-a-uuid'], accepted: [UNKNOWN_UUID] }
  if (json.type === 'boolean') return { rejected: ['yes', 'TRUE'], accepted: ['false'] }
  if (json.enum !== undefined) return { rejected: ['not-one-of-these'], accepted: [json.enum.at(-1)!] }
  if (json.anyOf !== undefined) return { rejected: ['yesterday', '2024-02-30'], accepted: ['2024-02-29'] }
  if (json.maxLength !== undefined)
    return { rejected: [chars(json.maxLength + 1)], accepted: [encodeURIComponent(chars(json.maxLength))] }
  return { rejected: [], accepted: [] }
}

/** The cases of every collection's list from its surface: its sort, its direction and each parameter. */
function surfaceCases(): { rejected: QueryCase[]; accepted: Array<[string, string]> } {
  const rejected: QueryCase[] = []
  const accepted: Array<[string, string]> = []
  for (const list of READ_LISTS) {
    const { path } = list.operation
    const sort = list.collection.list.sort
    if (sort === null) for (const param of Object.values(SORT_PARAMS)) rejected.push([path, `${param}=id`, param])
    else {
      const by = SORT_PARAMS[sort.direction]
      const names = Object.keys(sort.sorts)
      rejected.push([path, `${by}=id`, by], [path, `${by}=${names[0]!.toUpperCase()}`, by])
      rejected.push([path, `${sort.direction}=${sort.direction === 'sortDesc' ? '1' : 'ASC'}`, sort.direction])
      accepted.push(
        ...names.map((name): [string, string] => [
          path,
          `${by}=${name}&${sort.direction}=${sort.direction === 'sortDesc' ? 'false' : 'desc'}`,
        ]),
      )
    }
    for (const name of Object.keys(list.collection.list.params)) {
      const cases = parameterCases(paramJson(list, name))
      rejected.push(...cases.rejected.map((value): QueryCase => [path, `${name}=${value}`, name]))
      accepted.push(...cases.accepted.map((value): [string, string] => [path, `${name}=${value}`]))
      rejected.push([path, `${name}=a&${name}=a`, name])
    }
  }
  return { rejected, accepted }
}

const SURFACE = surfaceCases()

/** The cases of `derived` whose path and query no case of `written` has. */
function besides<T extends [string, string, ...unknown[]]>(written: T[], derived: T[]): T[] {
  const seen = new Set(written.map(([path, query]) => `${path}?${query}`))
  return derived.filter(([path, query]) => !seen.has(`${path}?${query}`))
}

/** Queries one past a bound: a 400 on the field named (the written cases, then the surfaces'). */
const WRITTEN_REJECTED: QueryCase[] = [
  ...LIST_PATHS.flatMap((path): QueryCase[] => [
    [path, 'page=0', 'page'],
    [path, 'page=-1', 'page'],
    [path, 'page=1.5', 'page'],
    [path, 'page=1e1', 'page'],
    [path, 'page=%2B1', 'page'],
    [path, 'page=%201', 'page'],
    [path, 'page=0x1', 'page'],
    [path, 'page=', 'page'],
    [path, 'limit=0', 'limit'],
    [path, 'limit=101', 'limit'],
    [path, 'limit=10.0', 'limit'],
    [path, 'limit=ten', 'limit'],
    [path, 'page=1&page=2', 'page'],
    [path, 'limit=5&limit=5', 'limit'],
  ]),
  ['/tickets', `search=${chars(256)}`, 'search'],
  ['/tickets', `status=${chars(101)}`, 'status'],
  ['/tickets', `priority=${chars(101)}`, 'priority'],
  ['/tickets', `assignedTo=${chars(256)}`, 'assignedTo'],
  ['/tickets', 'sortColumn=created_at', 'sortColumn'],
  ['/tickets', 'sortColumn=TITLE', 'sortColumn'],
  ['/tickets', 'sortDesc=TRUE', 'sortDesc'],
  ['/tickets', 'sortDesc=1', 'sortDesc'],
  ['/tickets', 'sortDesc=yes', 'sortDesc'],
  ['/tickets', 'isClosed=0', 'isClosed'],
  ['/tickets', 'isClosed=False', 'isClosed'],
  ['/tickets', 'provider=psa_e', 'provider'],
  ['/tickets', 'provider=PSA_A', 'provider'],
  ['/tickets', 'companyId=not-a-uuid', 'companyId'],
  ['/tickets', 'dateFrom=yesterday', 'dateFrom'],
  ['/tickets', 'dateTo=2024-13-01', 'dateTo'],
  // What `isoTimestamp` passes and `Date.parse` refuses: an hours-only offset, a space before it, a space for T.
  ['/tickets', 'dateFrom=2026-11-11T09:17:48%2B03', 'dateFrom'],
  ['/tickets', 'dateFrom=2026-11-11T09:17:48%20%2B03:00', 'dateFrom'],
  ['/tickets', 'dateFrom=2026-11-11%2009:17:48Z', 'dateFrom'],
  ['/tickets', 'dateFrom=2024-01-11&dateTo=2024-01-10', ['dateFrom', 'dateTo', '']],
  ['/tickets', 'dateFrom=2024-01-10T10:00:00.001Z&dateTo=2024-01-10T10:00:00.000Z', ['dateFrom', 'dateTo', '']],
  ['/tickets', 'search=a&search=b', 'search'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=0', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=101', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'notesLimit=-1', 'notesLimit'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=1', 'includeNotes'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=yes', 'includeNotes'],
  ['/compliance/templates', `search=${chars(101)}`, 'search'],
  ['/compliance/templates', 'sortBy=name', 'sortBy'],
  ['/compliance/templates', 'sortOrder=ASC', 'sortOrder'],
  ['/compliance/templates', 'approvalStatus=archived', 'approvalStatus'],
  ['/compliance/templates', 'checkScope=site', 'checkScope'],
  ['/compliance/templates', 'groupId=1', 'groupId'],
  ['/users', `search=${chars(256)}`, 'search'],
  ['/users', 'sortColumn=name', 'sortColumn'],
  ['/users', 'sortDesc=no', 'sortDesc'],
  ['/users', 'status=banned', 'status'],
  ['/users', 'roleId=admin', 'roleId'],
  ['/users', 'companyId=acme', 'companyId'],
  ['/users', 'isPrimaryAdmin=1', 'isPrimaryAdmin'],
  ['/report-templates', 'sortBy=title', 'sortBy'],
  ['/report-templates', 'sortOrder=up', 'sortOrder'],
  ['/report-templates', 'reportTypeId=x', 'reportTypeId'],
  ['/report-templates', 'isShared=yes', 'isShared'],
  [`/report-templates/${'aaaaaaaa-0008-4000-8000-000000000001'}`, 'includeStructure=1', 'includeStructure'],
  ['/calendar/types', 'sortBy=name', 'sortBy'],
  ['/companies', 'sortBy=domain', 'sortBy'],
  ['/companies', 'sortOrder=descending', 'sortOrder'],
  ['/companies', 'search=acme', 'search'],
  ['/training/enrollments', 'status=done', 'status'],
  ['/training/enrollments', 'courseId=x', 'courseId'],
  ['/training/enrollments', 'userId=x', 'userId'],
  ['/training/enrollments', 'companyId=x', 'companyId'],
]

/**
 * Queries one past a bound: a 400 on the field named (the written cases, then those of every list's surface).
 *
 * @example
 * for (const [path, query, field] of QUERY_REJECTED) expectValidationError(await get(path, query), 'query', field)
 */
export const QUERY_REJECTED: QueryCase[] = [...WRITTEN_REJECTED, ...besides(WRITTEN_REJECTED, SURFACE.rejected)]

/** Queries at a bound: accepted, and they reach the store. */
const WRITTEN_ACCEPTED: Array<[path: string, query: string]> = [
  ...PAGE_LIST_PATHS.flatMap(
    (path): Array<[string, string]> => [
      [path, 'page=1'],
      [path, 'limit=1'],
      [path, 'limit=100'],
      [path, 'page=2&limit=1'],
    ],
  ),
  ['/tickets', `search=${chars(255)}`],
  ['/tickets', `status=${chars(100)}`],
  ['/tickets', `priority=${chars(100)}`],
  ['/tickets', `assignedTo=${chars(255)}`],
  ['/tickets', 'sortDesc=false&isClosed=true'],
  ['/tickets', 'dateFrom=2024-01-10&dateTo=2024-01-10'],
  ['/tickets', 'dateFrom=2026-11-11T09:17:48%2B03:00&dateTo=2026-11-11T09:17:48.123456789-00:30'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=1'],
  [`/tickets/${'aaaaaaaa-0002-4000-8000-000000000001'}`, 'includeNotes=true&notesLimit=100'],
  ['/compliance/templates', `search=${chars(100)}`],
  ['/users', `search=${chars(255)}`],
  [`/report-templates/${'aaaaaaaa-0008-4000-8000-000000000001'}`, 'includeStructure=false'],
]

/**
 * Queries at a bound: accepted, and they reach the store (the written cases, then those of every list's surface).
 *
 * @example
 * for (const [path, query] of QUERY_ACCEPTED) expect((await get(path, query)).status).toBe(200)
 */
export const QUERY_ACCEPTED: Array<[path: string, query: string]> = [
  ...WRITTEN_ACCEPTED,
  ...besides(WRITTEN_ACCEPTED, SURFACE.accepted),
]
