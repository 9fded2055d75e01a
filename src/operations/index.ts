/**
 * The route registry: the 21 operations of the contract in its order, then the extensions. The router,
 * request validation, the OpenAPI document, the typed client and the tests all read this list.
 */
import type { AnyOperation, OperationReads } from '../http/operation.js'
import { createAutomationRule, updateAutomationRule } from './automation-rules.js'
import { createBudgetLineItem, updateBudget } from './budgets.js'
import { listMeetingTypes } from './calendar.js'
import { listCompanies } from './companies.js'
import { listEvents } from './events.js'
import { getComplianceCheck, getComplianceTemplate, listComplianceTemplates } from './compliance.js'
import { getGoal } from './goals.js'
import { getNpsSurvey } from './nps-surveys.js'
import { getPlannerItemType } from './planner.js'
import { getReportTemplate, listReportTemplates } from './report-templates.js'
import { updateReport } from './reports.js'
import { getTicket, listTickets } from './tickets.js'
import { deleteTrainingEnrollment, getTrainingCourse, listTrainingEnrollments } from './training.js'
import { listUsers } from './users.js'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from './webhook-endpoints.js'

/**
 * The operations keyed by id, in the order of the contract, each with its own schema types: the typed
 * client derives one method per entry from this (`typeof operationsById`), so no signature is
 * written twice.
 *
 * @example
 * operationsById.listTickets.path // '/tickets'
 */
export const operationsById = {
  listTickets,
  getTicket,
  createBudgetLineItem,
  updateBudget,
  createAutomationRule,
  updateAutomationRule,
  updateReport,
  listComplianceTemplates,
  getComplianceTemplate,
  getComplianceCheck,
  listTrainingEnrollments,
  deleteTrainingEnrollment,
  getTrainingCourse,
  listUsers,
  listReportTemplates,
  getReportTemplate,
  listMeetingTypes,
  listCompanies,
  getGoal,
  getNpsSurvey,
  getPlannerItemType,
  // Extensions (docs/extensions.md section 4)
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookEndpointSecret,
  listWebhookDeliveries,
  listEvents,
} as const

/** The id of an operation, e.g. `'listTickets'`. */
export type OperationId = keyof typeof operationsById

/**
 * The id of a read made by `readList` or `readOne` (reads.ts), which states what it reads: e.g. `'getGoal'`.
 * What a test needs of a read (a sample request) derives from that; the other operations are written out.
 */
export type ReadOperationId = {
  [K in OperationId]: (typeof operationsById)[K] extends { readonly reads: OperationReads } ? K : never
}[OperationId]

/**
 * Every operation of the API, in the order of the contract.
 *
 * @example
 * operations.map((op) => `${op.method} ${op.path} (${op.scope})`)
 */
export const operations: readonly AnyOperation[] = Object.values(operationsById)
