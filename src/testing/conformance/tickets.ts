/**
 * Tickets: by internal id and by ticket number (id first), notes only with `includeNotes=true`,
 * newest first, limited by `notesLimit`; records come back exactly as seeded.
 */
import { describe, expect, it } from 'vitest'
import type { ConformanceContext } from './context.js'
import { at, fixtureSeed } from './fixtures.js'
import type { Reply } from '../harness.js'

const NOTE_IDS_NEWEST_FIRST = ['note-a-3', 'note-a-2', 'note-a-1']

/**
 * Registers the ticket tests.
 *
 * @example
 * tickets(ctx)
 */
export function tickets(ctx: ConformanceContext): void {
  describe('tickets', () => {
    ticketLookups(ctx)

    ticketNotes(ctx)

    ticketLists(ctx)
  })
}

/** Registers the tests of the ticket list: its shape, and dates with years 0000-0099. */
function ticketLists(ctx: ConformanceContext): void {
  it('lists tickets in the list shape (no notes)', async () => {
    const { body } = await ctx.a.h.call<Reply<'listTickets'>>('GET', '/tickets?limit=100')
    for (const ticket of body.data) expect('notes' in ticket).toBe(false)
  })

  it('filters and sorts by dates with years 0000-0099 as the years they are (not 1900-1999)', async () => {
    const base = { isClosed: false, provider: 'psa_a' as const }
    const { h } = await ctx.fresh({
      tickets: [
        { ...base, id: 'y-0068-a', ticketNumber: 'N-y-0068-a', title: 'before', createdAt: '0068-02-15T12:40:57Z' },
        {
          ...base,
          id: 'y-0068-b',
          ticketNumber: 'N-y-0068-b',
          title: 'after',
          createdAt: '0068-02-15T12:40:59.000Z',
        },
        {
          ...base,
          id: 'y-0000',
          ticketNumber: 'N-y-0000',
          title: 'year zero',
          createdAt: '0000-01-01T00:00:00.000Z',
        },
        { ...base, id: 'y-1968', ticketNumber: 'N-y-1968', title: 'nineteen', createdAt: '1968-02-15T12:40:58.000Z' },
        { ...base, id: 'y-2024', ticketNumber: 'N-y-2024', title: 'now', createdAt: '2024-01-01T00:00:00.000Z' },
      ],
    })
    const titles = async (query: string) => {
      const { status, body } = await h.call<Reply<'listTickets'>>('GET', `/tickets?${query}`)
      expect(status, query).toBe(200)
      return body.data.map((ticket) => ticket.title)
    }
    expect(await titles('dateFrom=0068-02-15T12:40:58Z&sortColumn=created_date&sortDesc=false')).toEqual([
      'after',
      'nineteen',
      'now',
    ])
    expect(await titles('dateTo=0068-02-15T12:40:58Z&sortColumn=created_date&sortDesc=false')).toEqual([
      'year zero',
      'before',
    ])
    expect(await titles('dateFrom=0068-02-15&dateTo=0068-02-15&sortColumn=created_date&sortDesc=true')).toEqual([
      'after',
      'before',
    ])
    expect(await titles('dateTo=0000-01-01')).toEqual(['year zero'])
    const { body } = await h.call<Reply<'getTicket'>>('GET', '/tickets/y-0068-a')
    expect(body.data.createdAt).toBe('0068-02-15T12:40:57.000Z')
  })
}

/** Registers the tests of a ticket’s notes: included newest first, limited. */
function ticketNotes(ctx: ConformanceContext): void {
  it('includes notes newest first with includeNotes=true (default limit 25)', async () => {
    const { body } = await ctx.a.h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.a.ids.tickets[0]}?includeNotes=true`)
    expect(body.data.notes?.map((n: { id: string }) => n.id)).toEqual(NOTE_IDS_NEWEST_FIRST)
    expect(body.data.notes?.[0]).toEqual({
      id: 'note-a-3',
      text: 'Third',
      isInternal: true,
      createdAt: at(10, 12),
      createdBy: 'Ada',
    })
    expect(body.data.notes?.[1]?.createdBy).toBeNull()
  })

  it('limits notes to the newest notesLimit', async () => {
    for (const limit of [1, 2, 3, 100]) {
      const { body } = await ctx.a.h.call<Reply<'getTicket'>>(
        'GET',
        `/tickets/${ctx.a.ids.ticketNumber}?includeNotes=true&notesLimit=${limit}`,
      )
      expect(body.data.notes?.map((n: { id: string }) => n.id)).toEqual(NOTE_IDS_NEWEST_FIRST.slice(0, limit))
    }
  })

  it('answers notes: [] for a ticket without notes', async () => {
    const { body } = await ctx.a.h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.a.ids.tickets[1]}?includeNotes=true`)
    expect(body.data.notes).toEqual([])
  })

  it('applies the default notesLimit of 25', async () => {
    const notes = Array.from({ length: 30 }, (_, i) => ({
      id: `n${String(i).padStart(2, '0')}`,
      text: `note ${i}`,
      isInternal: false,
      createdAt: at(1, 0, i),
      createdBy: null,
    }))
    const { h } = await ctx.fresh({
      tickets: [
        {
          id: 't1',
          ticketNumber: '1',
          title: 'Many notes',
          isClosed: false,
          provider: 'psa_b',
          createdAt: at(1),
          notes,
        },
      ],
    })
    const { body } = await h.call<Reply<'getTicket'>>('GET', '/tickets/t1?includeNotes=true')
    expect(body.data.notes).toHaveLength(25)
    expect(body.data.notes?.[0]?.id).toBe('n29')
    expect(body.data.notes?.[24]?.id).toBe('n05')
  })
}

/** Registers the tests of getting a ticket by id or by ticket number. */
function ticketLookups(ctx: ConformanceContext): void {
  it('returns a ticket by id as seeded (missing nullable fields null), without notes by default', async () => {
    const { notes: _notes, ...seeded } = fixtureSeed('a').tickets!.find((t) => t.id === ctx.a.ids.tickets[0])!
    const { status, body } = await ctx.a.h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.a.ids.tickets[0]}`)
    expect(status).toBe(200)
    expect(body.data).toEqual({
      ...seeded,
      contactName: null,
      contactEmail: null,
      boardName: null,
      queueName: null,
      typeName: null,
      categoryName: null,
      issueTypeName: null,
      hoursBudgeted: null,
      hoursActual: null,
    })
    expect('notes' in body.data).toBe(false)
    const explicit = await ctx.a.h.call<Reply<'getTicket'>>(
      'GET',
      `/tickets/${ctx.a.ids.tickets[0]}?includeNotes=false&notesLimit=5`,
    )
    expect('notes' in explicit.body.data).toBe(false)
  })

  it('returns a ticket by its ticket number', async () => {
    const { status, body } = await ctx.a.h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.a.ids.ticketNumber}`)
    expect(status).toBe(200)
    expect(body.data.id).toBe(ctx.a.ids.tickets[0])
  })

  it('does not resolve another tenant’s ticket number', async () => {
    const { status, body } = await ctx.a.h.call<Reply<'getTicket'>>('GET', `/tickets/${ctx.b.ids.ticketNumber}`)
    expect(status).toBe(404)
    expect(body.code).toBe('NOT_FOUND')
  })

  it('prefers the internal id over a ticket number', async () => {
    const base = { title: 'T', isClosed: false, provider: 'psa_a' as const, createdAt: at(1) }
    const { h } = await ctx.fresh({
      tickets: [
        { ...base, id: 'T-2', ticketNumber: 'N-1', title: 'numbered N-1' },
        { ...base, id: 'N-1', ticketNumber: 'N-9', title: 'with id N-1' },
      ],
    })
    expect((await h.call<Reply<'getTicket'>>('GET', '/tickets/N-1')).body.data.title).toBe('with id N-1')
    expect((await h.call<Reply<'getTicket'>>('GET', '/tickets/N-9')).body.data.id).toBe('N-1')
    expect((await h.call<Reply<'getTicket'>>('GET', '/tickets/T-2')).body.data.ticketNumber).toBe('N-1')
  })
}
