/**
 * What the events tests read the feed with: every event after a cursor, the newest event's id, the
 * sync actor, and a walk that checks each page against the byte budget (docs/extensions.md, section 3).
 */
import { expect } from 'vitest'
import type { Event } from '../../model/events.js'
import type { Harness, Reply } from '../harness.js'
import { at } from './fixtures.js'

/**
 * Every event of the feed after `after`, walked by cursor; `extra` is added to each query.
 *
 * @example
 * const seen = await feed(h, await last(h), '&types=company.created')
 */
export async function feed(h: Harness, after?: string, extra = ''): Promise<Event[]> {
  const out: Event[] = []
  let cursor = after
  for (;;) {
    const query = `limit=100${cursor === undefined ? '' : `&after=${cursor}`}${extra}`
    const { status, body } = await h.call<Reply<'listEvents'>>('GET', `/events?${query}`)
    expect(status, JSON.stringify(body)).toBe(200)
    out.push(...body.data)
    if (!body.pagination.hasNextPage) return out
    cursor = body.pagination.nextCursor ?? undefined
  }
}

/**
 * The id of the newest event, or undefined before any.
 *
 * @example
 * const start = await last(h)
 */
export async function last(h: Harness): Promise<string | undefined> {
  const { body } = await h.call<Reply<'listEvents'>>('GET', '/events?order=desc&limit=1')
  return body.data[0]?.id
}

/** The actor of what a seed or a removal records. */
export const SYNC = { type: 'sync' }

/** The default byte budget of an events page (docs/extensions.md, section 3). */
const PAGE_BYTES = 1024 * 1024
const utf8 = new TextEncoder()
/** The UTF-8 bytes of `value`'s JSON, as the API sends it. */
const bytesOf = (value: unknown) => utf8.encode(JSON.stringify(value)).length

/**
 * A ticket whose event is about `size` bytes of JSON: its description `chars` characters, each of
 * `unit` (`€` is three bytes in UTF-8: a store that counted characters would take one char for one byte).
 *
 * @example
 * await ctx.store.seed(tenantId, { tickets: [bigTicket(1, '€', 700_000)] })
 */
export function bigTicket(n: number, unit: 'x' | '€', chars: number) {
  return {
    id: `00000000-0000-4000-8000-b16${String(n).padStart(9, '0')}`,
    ticketNumber: `BIG-${n}`,
    title: `Big ticket ${n}`,
    status: 'Open',
    priority: 'Low',
    isClosed: false,
    provider: 'psa_a' as const,
    createdAt: at(40, 0, n),
    description: unit.repeat(chars),
  }
}

/**
 * Walks the feed from its start to an empty page with `query`, checking every page against the byte
 * budget: at least one event, events within the budget unless one alone passes it, and no page cut
 * short while its next event would still have fit. Every non-empty page but the last says
 * `hasNextPage`; the empty page ends the walk.
 *
 * @example
 * const seen = await walkWithinBudget(h, 'order=desc', 100)
 */
export async function walkWithinBudget(h: Harness, query: string, limit: number): Promise<Event[]> {
  const pages: Event[][] = []
  let cursor: string | undefined
  for (;;) {
    const { status, body } = await h.call<Reply<'listEvents'>>(
      'GET',
      `/events?limit=${limit}&${query}${cursor === undefined ? '' : `&after=${cursor}`}`,
    )
    expect(status).toBe(200)
    const sizes = body.data.map(bytesOf)
    const total = sizes.reduce((sum, size) => sum + size, 0)
    const label = `${query} page ${pages.length}: ${sizes.join(' + ')} bytes`
    expect(body.data.length, label).toBeLessThanOrEqual(limit)
    expect(bytesOf(body), label).toBeLessThanOrEqual(PAGE_BYTES + Math.max(0, ...sizes) + 200)
    if (body.data.length > 1) expect(total, label).toBeLessThanOrEqual(PAGE_BYTES)
    const previous = pages.at(-1)
    if (previous !== undefined && previous.length < limit && body.data.length > 0) {
      // The previous page stopped for the budget: this page's first event would have passed it.
      expect(previous.map(bytesOf).reduce((sum, size) => sum + size, 0) + sizes[0]!, label).toBeGreaterThan(PAGE_BYTES)
    }
    if (body.data.length === 0) {
      expect(body.pagination).toEqual({ limit, hasNextPage: false, nextCursor: null })
      return pages.flat()
    }
    pages.push(body.data)
    expect(body.pagination.nextCursor).toBe(body.data.at(-1)!.id)
    cursor = body.pagination.nextCursor!
    if (!body.pagination.hasNextPage) {
      const after = await h.call<Reply<'listEvents'>>('GET', `/events?limit=${limit}&${query}&after=${cursor}`)
      expect(after.body.data, `${label}: hasNextPage false, yet more events`).toEqual([])
    }
  }
}
