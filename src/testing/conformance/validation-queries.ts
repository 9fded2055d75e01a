/**
 * The query validation cases: one past each bound of every list (page, limit, lengths, enums, ids,
 * dates, booleans, repeated parameters) rejected, and each bound itself accepted.
 */
import { operations } from '../../operations/index.js'
import { hasIdParam, isPageList } from './samples.js'
import { chars } from './validation-values.js'

/** A rejected query: its path, its query and the field the error names (null: any). */
export type QueryCase = [path: string, query: string, field: string | string[] | null]

/** Lists and what one past each of their bounds is. */
const LIST_PATHS = operations
  .filter((operation) => operation.method === 'GET' && !hasIdParam(operation))
  .map((operation) => operation.path)

/** The lists paged by `page` (not the events feed, which refuses `page` as unknown). */
const PAGE_LIST_PATHS = operations.filter(isPageList).map((operation) => operation.path)

/** Queries one past a bound: a 400 on the field named. */
export const QUERY_REJECTED: QueryCase[] = [
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

/** Queries at a bound: accepted, and they reach the store. */
export const QUERY_ACCEPTED: Array<[path: string, query: string]> = [
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
