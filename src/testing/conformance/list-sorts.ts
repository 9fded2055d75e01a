/**
 * The lists with sort options and the lists with one fixed order, as both the HTTP and the
 * store-level groups check them: each sort option's value in a fixture row, for the reference to
 * order by (reference.ts).
 */
import { fixtureSeed } from './fixtures.js'
import { sortRows, type Row } from './reference.js'

/** A value a list sorts or filters by. */
export type Value = string | number | boolean | null | undefined

/** The list operations of the collections (each lists one collection: `LIST_COLLECTIONS` in store-calls.ts). */
export type ListMethod =
  | 'listTickets'
  | 'listUsers'
  | 'listComplianceTemplates'
  | 'listReportTemplates'
  | 'listCompanies'
  | 'listMeetingTypes'
  | 'listTrainingEnrollments'

/** A list with sort options, as both the HTTP and the store-level groups check it. */
export interface SortableList {
  name: string
  path: string
  method: ListMethod
  rows: () => Row[]
  sortParam: string
  /** The query of a direction, e.g. `sortDesc=true` or `sortOrder=desc`. */
  direction: (descending: boolean) => string
  sorts: Record<string, (row: Row) => Value>
  defaultSort: { value: string; descending: boolean }
}

/**
 * The rows of a seed key of fixture tenant A, as the reference reads them.
 *
 * @example
 * fixtureRows('tickets')().length // 22
 */
export const fixtureRows = (key: keyof ReturnType<typeof fixtureSeed>) => () =>
  (fixtureSeed('a')[key] ?? []) as unknown as Row[]
/** A row's field `name`. */
export const field = (name: string) => (row: Row) => row[name] as Value
/** A row's field `inner` of its object `name` (null when that is null). */
export const nested = (name: string, inner: string) => (row: Row) =>
  ((row[name] as Record<string, unknown> | null)?.[inner] ?? null) as Value

/** Every list with sort options, each option's value in a row. */
export const SORTABLE: SortableList[] = [
  {
    name: 'tickets',
    path: '/tickets',
    method: 'listTickets',
    rows: fixtureRows('tickets'),
    sortParam: 'sortColumn',
    direction: (d) => `sortDesc=${d}`,
    sorts: {
      created_date: field('createdAt'),
      updated_date: field('updatedAt'),
      title: field('title'),
      status_name: field('status'),
      priority_name: field('priority'),
      company_name: field('companyName'),
      assigned_to: field('assignedTo'),
      days_open: field('daysOpen'),
    },
    defaultSort: { value: 'created_date', descending: true },
  },
  {
    name: 'users',
    path: '/users',
    method: 'listUsers',
    rows: fixtureRows('users'),
    sortParam: 'sortColumn',
    direction: (d) => `sortDesc=${d}`,
    sorts: {
      full_name: field('fullName'),
      email: field('email'),
      status: field('status'),
      created_at: field('createdAt'),
      last_login: field('lastLogin'),
    },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'compliance templates',
    path: '/compliance/templates',
    method: 'listComplianceTemplates',
    rows: fixtureRows('complianceTemplates'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: {
      title: field('title'),
      created_at: field('createdAt'),
      updated_at: field('updatedAt'),
      priority: field('priority'),
      criticality: field('criticality'),
    },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'report templates',
    path: '/report-templates',
    method: 'listReportTemplates',
    rows: fixtureRows('reportTemplates'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: { name: field('name'), created_at: field('createdAt'), updated_at: field('updatedAt') },
    defaultSort: { value: 'created_at', descending: true },
  },
  {
    name: 'companies',
    path: '/companies',
    method: 'listCompanies',
    rows: fixtureRows('companies'),
    sortParam: 'sortBy',
    direction: (d) => `sortOrder=${d ? 'desc' : 'asc'}`,
    sorts: { name: field('name'), created_at: field('createdAt'), updated_at: field('updatedAt') },
    defaultSort: { value: 'name', descending: false },
  },
]

/** Lists with one fixed order. */
export const FIXED: Array<{ name: string; path: string; method: ListMethod; order: () => Row[] }> = [
  {
    name: 'calendar types (orderIndex, then name, then id)',
    path: '/calendar/types',
    method: 'listMeetingTypes',
    order: () => sortRows(fixtureRows('meetingTypes')(), field('orderIndex'), false, [field('name')]),
  },
  {
    name: 'training enrollments (newest enrolledAt first, ties by id)',
    path: '/training/enrollments',
    method: 'listTrainingEnrollments',
    order: () => sortRows(fixtureRows('trainingEnrollments')(), field('enrolledAt'), true),
  },
]
