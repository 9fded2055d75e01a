/**
 * The wire facts the client needs at run time (method, path, list, idempotency, If-Match), one
 * entry per operation id. Generated from the operation registry by scripts/generate-client-routes.ts
 * (`npm run reference`; do not edit by hand): a browser bundle of the client imports this file, which
 * imports only types, and so carries no server code. `satisfies` makes the compiler reject a missing
 * or unknown id; test/client/routes.test.ts fails when the file is stale.
 */
import type { HttpMethod } from '../http/operation.js'
import type { OperationId } from '../operations/index.js'

/** How one operation is called. */
export interface ClientRoute {
  method: HttpMethod
  /** Relative to the base path; `:id` is the one path parameter. */
  path: string
  /** Answers `{ data: [...], pagination }`: the client can walk its pages. */
  list?: true
  /** Answers `{ data: [...], pagination: { nextCursor } }` and is walked with `after` (the events feed). */
  feed?: true
  /** Accepts `Idempotency-Key`: the client sends one, generated unless given. */
  idempotent?: true
  /** Accepts `If-Match` with the version the caller read. */
  ifMatch?: true
}

/**
 * Every operation's route, by operation id.
 *
 * @example
 * CLIENT_ROUTES.getTicket // { method: 'GET', path: '/tickets/:id' }
 */
export const CLIENT_ROUTES = {
  listTickets: { method: 'GET', path: '/tickets', list: true },
  getTicket: { method: 'GET', path: '/tickets/:id' },
  createBudgetLineItem: { method: 'POST', path: '/budgets/:id/items', idempotent: true },
  updateBudget: { method: 'PATCH', path: '/budgets/:id' },
  createAutomationRule: { method: 'POST', path: '/automation' },
  updateAutomationRule: { method: 'PATCH', path: '/automation/:id', ifMatch: true },
  updateReport: { method: 'PATCH', path: '/reports/:id', ifMatch: true },
  listComplianceTemplates: { method: 'GET', path: '/compliance/templates', list: true },
  getComplianceTemplate: { method: 'GET', path: '/compliance/templates/:id' },
  getComplianceCheck: { method: 'GET', path: '/compliance/checks/:id' },
  listTrainingEnrollments: { method: 'GET', path: '/training/enrollments', list: true },
  deleteTrainingEnrollment: { method: 'DELETE', path: '/training/enrollments/:id' },
  getTrainingCourse: { method: 'GET', path: '/training/courses/:id' },
  listUsers: { method: 'GET', path: '/users', list: true },
  listReportTemplates: { method: 'GET', path: '/report-templates', list: true },
  getReportTemplate: { method: 'GET', path: '/report-templates/:id' },
  listMeetingTypes: { method: 'GET', path: '/calendar/types', list: true },
  listCompanies: { method: 'GET', path: '/companies', list: true },
  getGoal: { method: 'GET', path: '/goals/:id' },
  getNpsSurvey: { method: 'GET', path: '/surveys/nps/:id' },
  getPlannerItemType: { method: 'GET', path: '/planner/types/:id' },
  createWebhookEndpoint: { method: 'POST', path: '/webhook-endpoints' },
  listWebhookEndpoints: { method: 'GET', path: '/webhook-endpoints', list: true },
  getWebhookEndpoint: { method: 'GET', path: '/webhook-endpoints/:id' },
  updateWebhookEndpoint: { method: 'PATCH', path: '/webhook-endpoints/:id' },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/webhook-endpoints/:id' },
  rotateWebhookEndpointSecret: { method: 'POST', path: '/webhook-endpoints/:id/rotate-secret' },
  listWebhookDeliveries: { method: 'GET', path: '/webhook-endpoints/:id/deliveries' },
  listEvents: { method: 'GET', path: '/events', feed: true },
} as const satisfies Record<OperationId, ClientRoute>
