/**
 * The events feed (docs/extensions.md, sections 2 and 3): every API write and every sync change
 * recorded once with its actor and data, change detection on re-seeding, the feed's order,
 * cursors, `types` filter, scopes, tenant isolation, validation and retention (410).
 */
import { describe, expect, it } from 'vitest'
import type { Scope } from '../../http/auth.js'
import type { Event } from '../../model/events.js'
import type { Reply, ValidationErrorReply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { bigTicket, feed, last, walkWithinBudget } from './events-kit.js'
import { apiWriteEvents, syncEvents } from './events-recording.js'
import { writableSeed } from './fixtures.js'

/**
 * Registers the events tests. The retention test runs on a second store of the kind under test,
 * made by `ctx.createStoreWithRetention`; without one it is reported skipped, with a note saying why.
 *
 * @example
 * events(ctx)
 */
export function events(ctx: ConformanceContext): void {
  describe('events feed', () => {
    apiWriteEvents(ctx)

    syncEvents(ctx)

    feedOrderAndPages(ctx)

    feedAccess(ctx)

    retention(ctx)
  })
}

/** Registers the tests of reading the feed: its order both ways, cursors, `types`, the byte budget of a page. */
function feedOrderAndPages(ctx: ConformanceContext): void {
  it('orders oldest first by default and newest first with order=desc, pages by cursor both ways', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const all = await feed(h)
    expect(all.length).toBeGreaterThan(5)
    const ids = all.map((e) => e.id)
    expect([...ids].sort()).toEqual(ids)
    const first = await h.call<Reply<'listEvents'>>('GET', '/events?limit=2')
    expect(first.body.data.map((e: Event) => e.id)).toEqual(ids.slice(0, 2))
    expect(first.body.pagination).toEqual({ limit: 2, hasNextPage: true, nextCursor: ids[1] })
    const next = await h.call<Reply<'listEvents'>>('GET', `/events?limit=2&after=${ids[1]}`)
    expect(next.body.data.map((e: Event) => e.id)).toEqual(ids.slice(2, 4))
    const newest = await h.call<Reply<'listEvents'>>('GET', '/events?order=desc&limit=3')
    expect(newest.body.data.map((e: Event) => e.id)).toEqual(ids.slice(-3).reverse())
    const older = await h.call<Reply<'listEvents'>>('GET', `/events?order=desc&limit=100&after=${ids.at(-3)}`)
    expect(older.body.data.map((e: Event) => e.id)).toEqual(ids.slice(0, -3).reverse())
    expect(older.body.pagination.hasNextPage).toBe(false)
    const end = await h.call<Reply<'listEvents'>>('GET', `/events?after=${ids.at(-1)}`)
    expect(end.body).toEqual({ data: [], pagination: { limit: 25, hasNextPage: false, nextCursor: null } })
  })

  it('filters by types', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const all = await feed(h)
    const some = await feed(h, undefined, '&types=company.created,goal.created')
    expect(some).toEqual(all.filter((e) => e.type === 'company.created' || e.type === 'goal.created'))
    expect(some.length).toBeGreaterThan(0)
  })

  it('stops each page at the byte budget, holding one event at least; a walk by cursor sees every event once', {
    timeout: 120_000,
  }, async () => {
    // Events of about 2 MB, 600 KB, 300 KB and less, some of three-byte characters, between companies.
    const { tenantId, h } = await ctx.fresh({})
    const company = writableSeed('a').companies![0]!
    const companies = [0, 1].map((n) => ({
      ...company,
      id: `00000000-0000-4000-8000-c0${String(n).padStart(10, '0')}`,
    }))
    const seeds = [
      { tickets: [bigTicket(1, '€', 700_000), bigTicket(2, 'x', 300_000), bigTicket(3, 'x', 300_000)] },
      { companies: [companies[0]!] },
      { tickets: [bigTicket(4, '€', 700_000), bigTicket(5, 'x', 2_000_000), bigTicket(6, '€', 210_000)] },
      { tickets: [bigTicket(7, 'x', 300_000)] },
      { companies: [companies[1]!] },
      { tickets: [bigTicket(8, '€', 50_000), bigTicket(9, 'x', 1_000)] },
    ]
    for (const seed of seeds) await ctx.store.seed(tenantId, seed)
    const expected = seeds.flatMap((seed) => [...(seed.tickets ?? []), ...(seed.companies ?? [])].map((r) => r.id))
    const ids = (events: Event[]) => events.map((e) => e.resource.id)
    expect(ids(await walkWithinBudget(h, 'order=asc', 100))).toEqual(expected)
    expect(ids(await walkWithinBudget(h, 'order=desc', 100))).toEqual([...expected].reverse())
    const tickets = expected.filter((id) => !companies.some((c) => c.id === id))
    expect(ids(await walkWithinBudget(h, 'types=ticket.created', 100))).toEqual(tickets)
    expect(ids(await walkWithinBudget(h, 'order=desc&types=ticket.created,company.created', 2))).toEqual(
      [...expected].reverse(),
    )
    // One page of the whole feed is what a store gives within the budget, not 100 events.
    const first = await h.call<Reply<'listEvents'>>('GET', '/events?limit=100')
    expect(ids(first.body.data)).toEqual(expected.slice(0, 1))
    expect(first.body.pagination.hasNextPage).toBe(true)
  })
}

/** Registers the tests of who reads the feed and how: scopes, tenant isolation, bad parameters. */
function feedAccess(ctx: ConformanceContext): void {
  it('shows a key only the events of resources it may read; types it may not read are a 403', async () => {
    const { tenantId } = await ctx.fresh(writableSeed('a'))
    const only = (scopes: Scope[]) => ctx.client(tenantId, scopes)
    const budgetsOnly = await feed(only(['events.read', 'budgets.write']))
    expect(budgetsOnly.length).toBeGreaterThan(0)
    expect(new Set(budgetsOnly.map((e) => e.resource.type))).toEqual(new Set(['budget']))
    const companiesOnly = await feed(only(['events.read', 'companies.read']))
    expect(new Set(companiesOnly.map((e) => e.resource.type))).toEqual(new Set(['company']))
    expect(await feed(only(['events.read']))).toEqual([])
    const denied = await only(['events.read', 'companies.read']).call<Reply<'listEvents'>>(
      'GET',
      '/events?types=company.created,budget.updated',
    )
    expect([denied.status, denied.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE'])
    const noScope = await only(['companies.read']).call<Reply<'listEvents'>>('GET', '/events')
    expect([noScope.status, noScope.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE'])
  })

  it('keeps each tenant’s feed to itself', async () => {
    const x = await ctx.fresh(writableSeed('a'))
    const y = await ctx.fresh(writableSeed('a'))
    const before = await feed(y.h)
    await x.h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${ctx.a.ids.budget}`, { body: { title: 'Only in X' } })
    await ctx.store.remove(x.tenantId, { companies: [ctx.a.ids.companies[0]!] })
    expect(await feed(y.h)).toEqual(before)
    expect(JSON.stringify(await feed(y.h))).not.toContain('Only in X')
    const xs = await feed(x.h)
    expect(xs.slice(-2).map((e) => e.type)).toEqual(['budget.updated', 'company.deleted'])
  })

  it('refuses bad parameters with a 400 on the parameter', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const newest = await last(h)
    const beyond = `evt_${String(Number(newest!.slice(4)) + 1).padStart(12, '0')}`
    const cases: [string, string][] = [
      ['after=nope', 'after'],
      ['after=evt_000000000000', 'after'],
      [`after=${beyond}`, 'after'],
      ['order=up', 'order'],
      ['types=ticket.exploded', 'types'],
      ['types=', 'types'],
      [`types=${Array.from({ length: 21 }, () => 'ticket.created').join(',')}`, 'types'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=2', 'page'],
    ]
    for (const [query, path] of cases) {
      const { status, body } = await h.call<ValidationErrorReply>('GET', `/events?${query}`)
      expect([status, body.code], query).toEqual([400, 'VALIDATION_ERROR'])
      expect(
        body.details.map((d) => d.path),
        query,
      ).toContain(path)
    }
    expect((await h.call('GET', '/events?limit=100&types=company.created')).status).toBe(200)
  })
}

/** Why the retention test is skipped on a store that offers no retention (docs/stores.md, "Your own store"). */
const NO_RETENTION_NOTE =
  'not run: no createStoreWithRetention was given, so retention and 410 CURSOR_EXPIRED are untested on this store'

/**
 * Registers the test of retention (docs/api-behaviour.md, "The events feed"): events past it are
 * pruned, and a cursor whose following events were pruned is a 410 `CURSOR_EXPIRED` both ways.
 * Without `ctx.createStoreWithRetention` the test is skipped with {@link NO_RETENTION_NOTE}.
 */
function retention(ctx: ConformanceContext): void {
  it('prunes events past the retention; a cursor whose following events are gone is a 410', async (test) => {
    const createStoreWithRetention = ctx.createStoreWithRetention
    if (createStoreWithRetention === undefined) {
      // The default reporter shows only a count of skipped tests, not their notes: say it on stderr too.
      console.warn(NO_RETENTION_NOTE)
      return test.skip(NO_RETENTION_NOTE)
    }
    const store = await createStoreWithRetention(300)
    try {
      const tenantId = `retention-${crypto.randomUUID()}`
      const h = ctx.clientOver(store, tenantId)
      await store.seed(tenantId, writableSeed('a'))
      const old = await feed(h)
      await new Promise((resolve) => setTimeout(resolve, 400))
      await store.seed(tenantId, { companies: [{ ...writableSeed('a').companies![0]!, name: 'Fresh' }] })
      const kept = await feed(h)
      expect(kept.map((e) => e.type)).toEqual(['company.updated'])
      const expired = await h.call<Reply<'listEvents'>>('GET', `/events?after=${old[0]!.id}`)
      expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED'])
      const older = await h.call<Reply<'listEvents'>>('GET', `/events?order=desc&after=${old.at(-1)!.id}`)
      expect([older.status, older.body.code]).toEqual([410, 'CURSOR_EXPIRED'])
      expect((await h.call<Reply<'listEvents'>>('GET', `/events?after=${old.at(-1)!.id}`)).body.data).toEqual(kept)
    } finally {
      await store.close()
    }
  })
}
