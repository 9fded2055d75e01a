import { defineOperation } from '../http/operation.js'
import { tickets } from '../model/tickets.js'
import { listPage } from './list-pages.js'
import { dataEnvelope, listEnvelope } from '../model/shared.js'
import { found, ok, TextIdParams } from './results.js'
import {
  TicketDetailQuerySchema,
  TicketListQuerySchema,
  TicketSchema,
  TicketWithNotesSchema,
} from '../model/tickets.js'

export const listTickets = defineOperation({
  id: 'listTickets',
  method: 'GET',
  path: '/tickets',
  area: 'Tickets',
  summary: 'List tickets',
  description: 'A page of the tenant’s tickets mirrored from its PSA systems, filtered and sorted.',
  scope: 'tickets.read',
  query: TicketListQuerySchema,
  response: listEnvelope(TicketSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, tickets),
})

export const getTicket = defineOperation({
  id: 'getTicket',
  method: 'GET',
  path: '/tickets/:id',
  area: 'Tickets',
  summary: 'Get a ticket',
  description: '`{id}` is the internal ticket id or, failing that, the PSA ticket number.',
  scope: 'tickets.read',
  params: TextIdParams,
  query: TicketDetailQuerySchema,
  response: dataEnvelope(TicketWithNotesSchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params, query }) =>
    ok(
      await found(
        store.get(tickets, tenantId, params.id, query.includeNotes ? { include: { notes: query.notesLimit } } : {}),
        'Ticket',
      ),
    ),
})
