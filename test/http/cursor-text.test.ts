/**
 * The text of a list's cursor, its query digest and its `Link` (docs/extensions.md, section 1) is
 * written by hand on every list page (src/http/cursor.ts, src/operations/list-pages.ts): it must
 * stay exactly what the plain expressions give (`JSON.stringify` then base64url, `toString(36)`,
 * the query rebuilt pair by pair), or cursors issued before would stop decoding.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, queryDigest } from '../../src/http/cursor.js'
import { tickets } from '../../src/model/tickets.js'
import { sortOrder } from '../../src/model/list-request.js'
import { pageOf } from '../../src/operations/list-pages.js'

/** base64url without padding of the UTF-8 bytes of `text`, through btoa. */
function referenceBase64Url(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** cyrb53 of the JSON text of the bound pairs sorted by key, in base 36 (the digest's definition). */
function referenceDigest(query: Record<string, unknown>): string {
  const pairs = Object.keys(query)
    .filter((key) => query[key] !== undefined && key !== 'page' && key !== 'limit' && key !== 'cursor')
    .sort()
    .map((key) => [key, query[key]])
  const text = JSON.stringify(pairs)
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** The next page's URL, rebuilt pair by pair: every pair but `page` and `cursor` (names decoded), then the cursor. */
function referenceLink(origin: string | null, url: URL, cursor: string): string {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false
      const raw = pair.includes('=') ? pair.slice(0, pair.indexOf('=')) : pair
      let name = raw
      try {
        name = decodeURIComponent(raw.replaceAll('+', ' '))
      } catch {}
      return name !== 'page' && name !== 'cursor'
    })
  return `${origin ?? ''}${url.pathname}?${kept.map((pair) => `${pair}&`).join('')}cursor=${cursor}`
}

const text = fc.string({ unit: 'binary', maxLength: 40 })
const value = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null))

describe('cursor text', () => {
  it('encodes as JSON.stringify then base64url of its UTF-8 bytes, and decodes back', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.integer({ min: 2, max: 2 ** 40 }),
        text,
        fc.array(value, { maxLength: 3 }),
        (op, digest, page, id, values) => {
          const cursor = encodeCursor(op, digest, { page, after: { id, values } })
          expect(cursor).toBe(referenceBase64Url(JSON.stringify([1, op, digest, page, id, ...values])))
        },
      ),
      { numRuns: 2000 },
    )
    const terms = sortOrder(tickets, 'created_date', true)
    const after = { id: 'ca4014f0-7c09-4bc1-b343-6a9d830a30f2', values: ['2025-09-25T20:21:36.792Z'] }
    const cursor = encodeCursor('listTickets', 'd1', { page: 7, after })
    expect(decodeCursor(cursor, 'listTickets', 'd1', tickets, terms)).toEqual({ page: 7, after })
  })

  it('digests a query as cyrb53 of its sorted bound pairs, in base 36', () => {
    const query = fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(value, fc.constant(undefined)), {
      maxKeys: 8,
    })
    fc.assert(
      fc.property(query, (q) => {
        expect(queryDigest(q)).toBe(referenceDigest(q))
      }),
      { numRuns: 2000 },
    )
  })

  it('links the next page with the query as the client wrote it, without page or cursor, never the Host', async () => {
    const name = fc.constantFrom('limit', 'page', 'cursor', 'status', 'pa%67e', 'a+b', '', 'sortDesc', 'Page')
    const pair = fc.tuple(name, fc.constantFrom('', '=', '=1', '=x%20y', '=page', '=a+b')).map(([n, v]) => n + v)
    const search = fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'))
    const item = { id: 'ca4014f0-7c09-4bc1-b343-6a9d830a30f2', createdAt: '2025-09-25T20:21:36.792Z' }
    await fc.assert(
      fc.asyncProperty(search, fc.constantFrom(null, 'https://portal.example'), async (raw, publicOrigin) => {
        const url = new URL(`http://127.0.0.1:8080/api/public/v1/tickets?${raw}`)
        const query = { page: 1, limit: 1, sortColumn: 'created_date', sortDesc: true }
        const context = { url, query, operationId: 'listTickets', publicOrigin }
        const result = await pageOf(context, tickets, async () => ({ items: [item], totalCount: 5 }))
        const cursor = (result.body as { pagination: { nextCursor: string } }).pagination.nextCursor
        expect(result.headers?.link).toBe(`<${referenceLink(publicOrigin, url, cursor)}>; rel="next"`)
        expect(result.headers?.link).not.toContain('127.0.0.1')
      }),
      { numRuns: 1000 },
    )
  })
})
