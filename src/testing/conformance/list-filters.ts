/**
 * Every filter of every list, with the reference's statement of what it keeps: search with `%`,
 * `_` and `\` taken literally and case folded, ids in any case, enums, booleans, dates and
 * combinations.
 */
import { type ListMethod, field, fixtureRows, nested } from './list-sorts.js'
import { fold, sortRows, type Row } from './reference.js'

/** One filter query and the reference's statement of what it keeps. */
export interface FilterCase {
  query: string
  matches: (row: Row) => boolean
  /** When given, the titles/names the filter must return, whatever the order. */
  exactly?: string[]
}

const ticketTitle = (row: Row) => row.title as string
/** Every filter of every list, checked against the reference. */
export const FILTERS: Record<
  string,
  {
    path: string
    method: ListMethod
    rows: () => Row[]
    defaultOrder: (rows: Row[]) => Row[]
    label: (row: Row) => string
    cases: FilterCase[]
  }
> = {
  tickets: {
    path: '/tickets',
    method: 'listTickets',
    rows: fixtureRows('tickets'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
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
  users: {
    path: '/users',
    method: 'listUsers',
    rows: fixtureRows('users'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
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
  'compliance templates': {
    path: '/compliance/templates',
    method: 'listComplianceTemplates',
    rows: fixtureRows('complianceTemplates'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
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
  'report templates': {
    path: '/report-templates',
    method: 'listReportTemplates',
    rows: fixtureRows('reportTemplates'),
    defaultOrder: (rows) => sortRows(rows, field('createdAt'), true),
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
  'training enrollments': {
    path: '/training/enrollments',
    method: 'listTrainingEnrollments',
    rows: fixtureRows('trainingEnrollments'),
    defaultOrder: (rows) => sortRows(rows, field('enrolledAt'), true),
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
