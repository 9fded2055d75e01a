import { TicketDetailQuerySchema, TicketSchema, TicketWithNotesSchema, tickets } from '../model/tickets.js'
import { readList, readOne } from './reads.js'
import { TextIdParams } from './results.js'

export const listTickets = readList(tickets, {
  id: 'listTickets',
  path: '/tickets',
  area: 'Tickets',
  summary: 'List tickets',
  description: 'A page of the tenant’s tickets mirrored from its PSA systems, filtered and sorted.',
  scope: 'tickets.read',
  item: TicketSchema,
})

export const getTicket = readOne(tickets, {
  id: 'getTicket',
  path: '/tickets/:id',
  area: 'Tickets',
  summary: 'Get a ticket',
  description: '`{id}` is the internal ticket id or, failing that, the PSA ticket number.',
  scope: 'tickets.read',
  params: TextIdParams,
  query: TicketDetailQuerySchema,
  item: TicketWithNotesSchema,
  what: 'Ticket',
  request: (query) => (query.includeNotes ? { include: { notes: query.notesLimit } } : {}),
})
