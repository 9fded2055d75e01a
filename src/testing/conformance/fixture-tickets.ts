/**
 * The tickets of a fixture tenant: ties on every sort, nulls, case, code points above U+FFFF, `%`,
 * `_` and `\` in titles, the edges of a day, and one ticket with notes seeded out of order.
 */
import { companyRef } from './fixture-companies-and-users.js'
import { TicketWithNotesSchema } from '../../model/tickets.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, fixtureIdRange, nameSuffix, type SeedList, shuffled } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kind of {@link fixtureIdRange} of tickets. */
const TICKET = 0x02

/**
 * Tickets: [title, status, priority, assignedTo, company index | null, isClosed, provider,
 * createdAt, updatedAt | null, daysOpen | null].
 */
type TicketRow = [
  string,
  string | null,
  string | null,
  string | null,
  number | null,
  boolean,
  'psa_a' | 'psa_b' | 'psa_c' | 'psa_d',
  string,
  string | null,
  number | null,
]
export const TICKET_ROWS: TicketRow[] = [
  ['Printer jam', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(10, 9), at(11), 3],
  ['printer jam', 'open', 'high', 'ada lovelace', 1, false, 'psa_b', at(10, 9), at(11), 3],
  ['Zebra label printer', 'Opened', 'Higher', 'Ada', 2, false, 'psa_c', at(10, 9), null, 5],
  ['alpha server down', 'In Progress', 'Low', 'Grace Hopper', 3, false, 'psa_d', at(10, 9), at(12), null],
  ['Alpha server down', 'Closed', null, null, null, true, 'psa_a', at(10, 9), at(12), 1],
  ['éclair machine broken', null, 'Medium', 'Grace Hopper', 4, false, 'psa_b', at(10, 9), null, 7],
  ['😀 emoji in subject', 'Open', 'Low', null, 5, false, 'psa_c', at(10, 9), at(13), null],
  ['Ａ fullwidth subject', 'OPEN', 'LOW', 'GRACE HOPPER', 6, true, 'psa_d', at(10, 9), at(13), 2],
  ['100% CPU usage', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(9, 12), at(10), 4],
  ['100 percent disk', 'Open', 'High', 'Ada Lovelace', 0, false, 'psa_a', at(9, 12), at(10), 4],
  ['snake_case field', 'Closed', 'Medium', null, 1, true, 'psa_b', at(9), null, null],
  ['snakeXcase field', 'Closed', 'Medium', null, 1, true, 'psa_b', at(9), null, null],
  ['path C:\\temp broken', 'Open', null, 'Grace Hopper', 2, false, 'psa_c', at(8), at(9), 10],
  ['path C:/temp broken', 'Open', null, 'Grace Hopper', 2, false, 'psa_c', at(8), at(9), 10],
  ['VPN drops', 'Open', 'Low', 'Ada Lovelace', null, false, 'psa_d', at(11), at(11), 0],
  ['VPN drops', 'Open', 'Low', 'Ada Lovelace', null, false, 'psa_d', at(11), at(11), 0],
  ['Edge: start of day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-12T00:00:00.000Z', null, null],
  ['Edge: end of day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-12T23:59:59.999Z', null, null],
  ['Edge: next day', 'Waiting', 'Low', null, 0, false, 'psa_a', '2024-01-13T00:00:00.000Z', null, null],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
  ['Mail delay', 'Open', 'Medium', 'Ada Lovelace', 3, false, 'psa_b', at(7), at(14), 12],
]

/**
 * The tickets of a fixture tenant, in id order; the first has three notes, seeded out of order.
 *
 * @example
 * ticketSeeds('a', fixtureIds('a'))[0]?.ticketNumber // 'A-1001'
 */
export function ticketSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'tickets'> {
  return TICKET_ROWS.map(
    ([title, status, priority, assignedTo, company, isClosed, provider, createdAt, updatedAt, daysOpen], i) => ({
      id: ids.tickets[i]!,
      ticketNumber: `${tenant.toUpperCase()}-${1001 + i}`,
      title: `${title}${nameSuffix(tenant)}`,
      description: i === 0 ? 'Paper stuck in tray 2' : null,
      companyId: companyRef(tenant, company)?.id ?? null,
      companyName: companyRef(tenant, company)?.name ?? null,
      status,
      isClosed,
      priority,
      assignedTo,
      createdAt,
      updatedAt,
      daysOpen,
      provider,
      externalId: `ext-${tenant}-${i + 1}`,
      source: 'sync',
      notes:
        i === 0
          ? [
              { id: `note-${tenant}-1`, text: 'First', isInternal: false, createdAt: at(10, 10), createdBy: 'Ada' },
              { id: `note-${tenant}-3`, text: 'Third', isInternal: true, createdAt: at(10, 12), createdBy: 'Ada' },
              { id: `note-${tenant}-2`, text: 'Second', isInternal: false, createdAt: at(10, 11), createdBy: null },
            ]
          : [],
    }),
  )
}

/**
 * The tickets' fixture; `ticketNumber` is the number of `tickets[0]`.
 *
 * @example
 * ticketFixture.ids('b').ticketNumber // 'B-1001'
 */
export const ticketFixture = defineFixture<'tickets'>()({
  ids: (tenant) => ({
    tickets: fixtureIdRange(tenant, TICKET, TICKET_ROWS.length),
    ticketNumber: `${tenant.toUpperCase()}-1001`,
  }),
  seed: (tenant, ids) => shuffled(ticketSeeds(tenant, ids)),
  writable: false,
  record: TicketWithNotesSchema,
})
