/**
 * Webhook endpoints (docs/extensions.md section 4): create, list, get, update, delete, rotate the
 * secret and list delivery attempts; secrets shown only by create and rotate; the URL rules, the
 * event types a key may subscribe to, the limit of 20 per tenant (under concurrent creates too)
 * and tenant isolation.
 */
import { describe, expect, it } from 'vitest'
import { SCOPES, type Scope } from '../../http/auth.js'
import type { ErrorBody, ValidationIssue } from '../../http/errors.js'
import { EVENT_TYPES } from '../../model/events.js'
import { endpointWantsEvent, type WebhookEndpointRecord } from '../../model/webhook-endpoints.js'
import type { WebhookDeliveryRecord } from '../../ports/webhook-store.js'
import type { Harness, Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { expectValidationError } from './validation.js'
import { webhookEndpointId } from './webhook-fixtures.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/
const URL_OK = 'https://hooks.example.com/in'
const DAY_MS = 24 * 60 * 60 * 1000

/** Every key of a response body, at any depth, with every string value. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(texts)
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...texts(inner)])
  return []
}

function delivery(endpointId: string, n: number, createdAt: string): WebhookDeliveryRecord {
  return {
    id: `dlv_${String(n).padStart(3, '0')}`,
    endpointId,
    eventId: `evt_${n}`,
    eventType: 'ticket.created',
    attempt: 1,
    status: n % 2 === 0 ? 'succeeded' : 'failed',
    responseStatus: n % 2 === 0 ? 200 : 500,
    durationMs: 12,
    error: n % 2 === 0 ? null : 'Receiver answered 500',
    createdAt,
    nextAttemptAt: null,
  }
}

/**
 * Registers the webhook endpoint tests.
 *
 * @example
 * webhooks(ctx)
 */
export function webhooks(ctx: ConformanceContext): void {
  const tenant = async (scopes: readonly Scope[] | '*' = '*') => {
    const { tenantId } = await ctx.fresh({})
    return { tenantId, h: ctx.client(tenantId, scopes) }
  }
  const create = (h: Harness, body: Record<string, unknown> = {}) =>
    h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url: URL_OK, events: ['ticket.created'], ...body },
    })

  describe('webhook endpoints', () => {
    it('POST answers 201 with the endpoint, its secret and Location; the store keeps the secret to sign', async () => {
      const { tenantId, h } = await tenant()
      const result = await create(h, { events: ['ticket.created', 'budget.updated'], description: 'CRM sync' })
      expect(result.status).toBe(201)
      const data = result.body.data
      expect(data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: URL_OK,
        events: ['ticket.created', 'budget.updated'],
        description: 'CRM sync',
        status: 'enabled',
        disabledReason: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: data.createdAt,
        secret: expect.stringMatching(SECRET),
      })
      expect(atob(data.secret.slice('whsec_'.length))).toHaveLength(24)
      expect(result.headers.get('location')).toBe(`/api/public/v1/webhook-endpoints/${data.id}`)
      const stored = await ctx.store.getWebhookEndpoint(tenantId, data.id)
      expect(stored?.secrets).toEqual([{ secret: data.secret, expiresAt: null }])
      const other = await create(h)
      expect(other.body.data.secret).not.toBe(data.secret)
    })

    it('no answer but create and rotate-secret carries a secret', async () => {
      const { h } = await tenant()
      const created = (await create(h)).body.data
      const path = `/webhook-endpoints/${created.id}`
      const answers = [
        await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints'),
        await h.call('GET', path),
        await h.call('PATCH', path, { body: { description: 'x' } }),
        await h.call('GET', `${path}/deliveries`),
      ]
      const rotated = await h.call<Reply<'rotateWebhookEndpointSecret'>>('POST', `${path}/rotate-secret`)
      answers.push(await h.call('GET', path), await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints'))
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        const all = texts(answer.body)
        expect(all).not.toContain('secret')
        expect(all).not.toContain('secrets')
        expect(all).not.toContain(created.secret)
        expect(all).not.toContain(rotated.body.data.secret)
        expect(all.some((text) => text.startsWith('whsec_'))).toBe(false)
      }
    })

    it('GET lists newest first with pagination, and gets one', async () => {
      const { h } = await tenant()
      const ids: string[] = []
      for (let n = 0; n < 3; n++) {
        ids.push((await create(h, { description: `n${n}` })).body.data.id)
        await new Promise((resolve) => setTimeout(resolve, 3))
      }
      const all = await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')
      expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse())
      expect(all.body.pagination).toEqual({
        page: 1,
        limit: 25,
        totalCount: 3,
        totalPages: 1,
        hasNextPage: false,
        hasPrevPage: false,
        nextCursor: null,
      })
      const first = await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints?limit=2')
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]])
      const byCursor = await h.call<Reply<'listWebhookEndpoints'>>(
        'GET',
        `/webhook-endpoints?limit=2&cursor=${first.body.pagination.nextCursor}`,
      )
      expect(byCursor.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]])
      expect(byCursor.body.pagination).toMatchObject({ page: 2, hasNextPage: false, nextCursor: null })
      const second = await h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints?page=2&limit=2')
      expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]])
      expect(second.body.pagination).toMatchObject({ page: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true })
      const one = await h.call<Reply<'getWebhookEndpoint'>>('GET', `/webhook-endpoints/${ids[1]}`)
      expect(one.body.data).toMatchObject({ id: ids[1], description: 'n1', url: URL_OK })
    })

    it('PATCH changes only what it is given; status sets and clears disabledReason', async () => {
      const { tenantId, h } = await tenant()
      const created = (await create(h, { description: 'before' })).body.data
      const path = `/webhook-endpoints/${created.id}`
      await new Promise((resolve) => setTimeout(resolve, 3))
      const disabled = await h.call<Reply<'updateWebhookEndpoint'>>('PATCH', path, { body: { status: 'disabled' } })
      expect(disabled.status).toBe(200)
      expect(disabled.body.data).toEqual({
        ...created,
        secret: undefined,
        status: 'disabled',
        disabledReason: 'manual',
        updatedAt: expect.stringMatching(ISO),
      })
      expect(disabled.body.data.updatedAt > created.updatedAt).toBe(true)
      const changed = await h.call<Reply<'updateWebhookEndpoint'>>('PATCH', path, {
        body: { url: 'https://other.example.com/x', events: ['*'], description: null, status: 'enabled' },
      })
      expect(changed.body.data).toMatchObject({
        url: 'https://other.example.com/x',
        events: ['*'],
        description: null,
        status: 'enabled',
        disabledReason: null,
      })
      // The secret is untouched by PATCH.
      expect((await ctx.store.getWebhookEndpoint(tenantId, created.id))?.secrets).toEqual([
        { secret: created.secret, expiresAt: null },
      ])
    })

    it('events are de-duplicated; ["*"] is kept as written', async () => {
      const { h } = await tenant()
      const dup = await create(h, { events: ['ticket.created', 'ticket.created', 'ticket.updated'] })
      expect(dup.body.data.events).toEqual(['ticket.created', 'ticket.updated'])
      const star = await create(h, { events: ['*'] })
      expect(star.body.data.events).toEqual(['*'])
    })

    it('rotate-secret answers a new secret; the old one keeps signing for 24 hours', async () => {
      const { tenantId, h } = await tenant()
      const created = (await create(h)).body.data
      const before = Date.now()
      const rotated = await h.call<Reply<'rotateWebhookEndpointSecret'>>(
        'POST',
        `/webhook-endpoints/${created.id}/rotate-secret`,
      )
      expect(rotated.status).toBe(200)
      expect(rotated.body.data).toMatchObject({ id: created.id, secret: expect.stringMatching(SECRET) })
      expect(rotated.body.data.secret).not.toBe(created.secret)
      const secrets = (await ctx.store.getWebhookEndpoint(tenantId, created.id))!.secrets
      expect(secrets.map((s) => s.secret)).toEqual([rotated.body.data.secret, created.secret])
      expect(secrets[0]!.expiresAt).toBeNull()
      const oldEnd = Date.parse(secrets[1]!.expiresAt!)
      expect(oldEnd - before).toBeGreaterThanOrEqual(DAY_MS - 5_000)
      expect(oldEnd - before).toBeLessThanOrEqual(DAY_MS + 5_000)
      // A second rotation keeps the first secret's end; three secrets sign until then.
      const again = await h.call<Reply<'rotateWebhookEndpointSecret'>>(
        'POST',
        `/webhook-endpoints/${created.id}/rotate-secret`,
      )
      const after = (await ctx.store.getWebhookEndpoint(tenantId, created.id))!.secrets
      expect(after.map((s) => s.secret)).toEqual([again.body.data.secret, rotated.body.data.secret, created.secret])
      expect(after[2]!.expiresAt).toBe(secrets[1]!.expiresAt)
    })

    it('DELETE removes the endpoint and its deliveries: 404 afterwards', async () => {
      const { tenantId, h } = await tenant()
      const created = (await create(h)).body.data
      await ctx.store.saveWebhookDelivery(tenantId, delivery(created.id, 1, '2024-01-01T00:00:00.000Z'))
      const path = `/webhook-endpoints/${created.id}`
      expect((await h.call('DELETE', path)).body).toEqual({ message: 'Webhook endpoint deleted' })
      expect((await h.call('GET', path)).status).toBe(404)
      expect((await h.call('GET', `${path}/deliveries`)).status).toBe(404)
      expect((await h.call('DELETE', path)).status).toBe(404)
      expect(await ctx.store.listWebhookDeliveries(tenantId, created.id, 10)).toEqual([])
    })

    it('deliveries: the newest `limit` attempts, newest first, without another endpoint’s', async () => {
      const { tenantId, h } = await tenant()
      const one = (await create(h)).body.data.id
      const two = (await create(h)).body.data.id
      for (let n = 0; n < 30; n++) {
        const at = new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString()
        await ctx.store.saveWebhookDelivery(tenantId, delivery(n % 3 === 0 ? two : one, n, at))
      }
      // Saving an attempt again (its outcome arrived) replaces it.
      await ctx.store.saveWebhookDelivery(tenantId, { ...delivery(one, 29, '2024-01-01T00:29:00.000Z'), attempt: 2 })
      const result = await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${one}/deliveries?limit=5`)
      expect(result.status).toBe(200)
      expect(result.body.data.map((d: { id: string }) => d.id)).toEqual([
        'dlv_029',
        'dlv_028',
        'dlv_026',
        'dlv_025',
        'dlv_023',
      ])
      const { endpointId: _e, ...shown } = { ...delivery(one, 29, '2024-01-01T00:29:00.000Z'), attempt: 2 }
      expect(result.body.data[0]).toEqual(shown)
      const defaults = await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${one}/deliveries`)
      expect(defaults.body.data).toHaveLength(20)
      expectValidationError(
        await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${one}/deliveries?limit=101`),
        'query',
        'limit',
      )
      expectValidationError(
        await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${one}/deliveries?limit=0`),
        'query',
        'limit',
      )
    })

    describe('validation', () => {
      const rejected: [label: string, body: Record<string, unknown>, field: string][] = [
        ['an http URL', { url: 'http://hooks.example.com/in' }, 'url'],
        ['credentials in the URL', { url: 'https://user:pass@hooks.example.com/in' }, 'url'],
        ['a fragment', { url: 'https://hooks.example.com/in#x' }, 'url'],
        ['a relative URL', { url: '/in' }, 'url'],
        ['a URL of 2049 characters', { url: `https://hooks.example.com/${'a'.repeat(2049 - 26)}` }, 'url'],
        ['a loopback address', { url: 'https://127.0.0.1/in' }, 'url'],
        ['a private address', { url: 'https://192.168.0.10/in' }, 'url'],
        ['a link-local address', { url: 'https://169.254.169.254/latest' }, 'url'],
        ['an IPv4-mapped loopback', { url: 'https://[::ffff:127.0.0.1]/in' }, 'url'],
        ['a unique-local address', { url: 'https://[fd00::1]/in' }, 'url'],
        ['localhost', { url: 'https://localhost/in' }, 'url'],
        ['localhost with a trailing dot', { url: 'https://LocalHost./in' }, 'url'],
        ['an IPv4-translated loopback', { url: 'https://[::ffff:0:127.0.0.1]/in' }, 'url'],
        ['a local-use NAT64 loopback', { url: 'https://[64:ff9b:1::7f00:1]/in' }, 'url'],
        ['a 6to4 address', { url: 'https://[2002:7f00:1::]/in' }, 'url'],
        ['a Teredo address', { url: 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/in' }, 'url'],
        ['a site-local address', { url: 'https://[fec0::1]/in' }, 'url'],
        ['a documentation address', { url: 'https://192.0.2.10/in' }, 'url'],
        ['no URL', { url: undefined }, 'url'],
        ['no event types', { events: [] }, 'events'],
        ['51 event types', { events: Array(51).fill('ticket.created') }, 'events'],
        ['an unknown event type', { events: ['ticket.exploded'] }, 'events[0]'],
        ['"*" with other types', { events: ['*', 'ticket.created'] }, 'events'],
        ['events that are not an array', { events: 'ticket.created' }, 'events'],
        ['a description of 501 characters', { description: 'x'.repeat(501) }, 'description'],
        ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
      ]
      for (const [label, body, field] of rejected) {
        it(`POST rejects ${label} (400 on ${field}) and writes nothing`, async () => {
          const { tenantId, h } = await tenant()
          expectValidationError(await create(h, body), 'body', field)
          expect(await ctx.store.listWebhookEndpoints(tenantId)).toEqual([])
        })
      }

      it('POST accepts the bounds: a URL of 2048 characters, 50 event types, a description of 500', async () => {
        const { h } = await tenant()
        const url = `https://hooks.example.com/${'a'.repeat(2048 - 26)}`
        const events = EVENT_TYPES.slice(0, 50)
        const result = await create(h, { url, events, description: 'x'.repeat(500) })
        expect(result.status).toBe(201)
        expect(result.body.data.events).toEqual(events)
      })

      it('PATCH rejects an empty body, an unsafe URL, bad events and an unknown status', async () => {
        const { h } = await tenant()
        const path = `/webhook-endpoints/${(await create(h)).body.data.id}`
        expectValidationError(await h.call('PATCH', path, { body: {} }), 'body', null)
        expectValidationError(await h.call('PATCH', path, { body: { url: 'http://x.example' } }), 'body', 'url')
        expectValidationError(await h.call('PATCH', path, { body: { url: 'https://10.0.0.1/' } }), 'body', 'url')
        expectValidationError(await h.call('PATCH', path, { body: { url: 'https://localhost./' } }), 'body', 'url')
        expectValidationError(await h.call('PATCH', path, { body: { url: 'https://[2002:7f00:1::]/' } }), 'body', 'url')
        expectValidationError(await h.call('PATCH', path, { body: { events: [] } }), 'body', 'events')
        expectValidationError(await h.call('PATCH', path, { body: { status: 'failing' } }), 'body', 'status')
        expectValidationError(await h.call('PATCH', path, { body: { disabledReason: null } }), 'body', 'disabledReason')
        expect((await h.call<Reply<'getWebhookEndpoint'>>('GET', path)).body.data).toMatchObject({
          url: URL_OK,
          events: ['ticket.created'],
        })
      })
    })

    describe('scopes', () => {
      it('a key may subscribe only to types it may read: 403 naming the scopes it lacks', async () => {
        const { tenantId, h } = await tenant(['webhooks.write', 'tickets.read'])
        const refused = await create(h, { events: ['ticket.created', 'budget.updated', 'user.deleted'] })
        expect(refused.status).toBe(403)
        expect(refused.body.code).toBe('INSUFFICIENT_SCOPE')
        expect(refused.body.details).toEqual({ requiredScopes: ['budgets.write', 'users.read'] })
        expect(await ctx.store.listWebhookEndpoints(tenantId)).toEqual([])
        const allowed = await create(h, { events: ['ticket.created', 'ticket.deleted'] })
        expect(allowed.status).toBe(201)
        const patched = await h.call<Reply<'updateWebhookEndpoint'>>(
          'PATCH',
          `/webhook-endpoints/${allowed.body.data.id}`,
          {
            body: { events: ['company.created'] },
          },
        )
        expect(patched.status).toBe(403)
        expect(patched.body.details).toEqual({ requiredScopes: ['companies.read'] })
      })

      it('X.write grants the reading of X’s events; ["*"] means what the key may read', async () => {
        const { tenantId, h } = await tenant(['webhooks.write', 'budgets.write'])
        expect((await create(h, { events: ['budget_line_item.created'] })).status).toBe(201)
        const star = (await create(h, { events: ['*'] })).body.data
        const stored = await ctx.store.getWebhookEndpoint(tenantId, star.id)
        expect(stored?.eventScopes).toEqual(['webhooks.write', 'budgets.write'])
      })

      describe('binding: each change but a description needs a key that reads all the endpoint delivers', () => {
        const delivered = (record: WebhookEndpointRecord | null) =>
          EVENT_TYPES.filter((type) => record !== null && endpointWantsEvent(record, type))
        const EVIL = 'https://receiver.attacker.example/in'

        it('a webhooks.write key may not re-point, re-enable or re-key an admin’s ["*"] endpoint (403)', async () => {
          const { tenantId, h } = await tenant()
          const id = (await create(h, { events: ['*'] })).body.data.id
          const path = `/webhook-endpoints/${id}`
          const before = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(delivered(before)).toContain('user.created')
          const weak = ctx.client(tenantId, ['webhooks.write'])
          for (const [method, suffix, body] of [
            ['PATCH', '', { url: EVIL }],
            ['PATCH', '', { status: 'disabled' }],
            ['PATCH', '', { url: EVIL, description: 'mine' }],
            ['POST', '/rotate-secret', undefined],
          ] as const) {
            const refused = await weak.call<ErrorBody>(method, `${path}${suffix}`, body === undefined ? {} : { body })
            expect(refused.status, `${method} ${suffix} ${JSON.stringify(body)}`).toBe(403)
            expect(refused.body.code).toBe('INSUFFICIENT_SCOPE')
            const required = (refused.body.details as { requiredScopes: string[] }).requiredScopes
            expect(required).toEqual(expect.arrayContaining(['tickets.read', 'users.read', 'companies.read']))
            expect(new Set(required).size).toBe(required.length)
            expect(JSON.stringify(refused.body)).not.toContain('whsec_')
          }
          expect(await ctx.store.getWebhookEndpoint(tenantId, id)).toEqual(before)
        })

        it('no silent narrowing: a key reading less than a ["*"] endpoint delivers: 403 naming the rest', async () => {
          const { tenantId } = await tenant()
          const maker = ctx.client(tenantId, ['webhooks.write', 'tickets.read', 'users.read', 'companies.read'])
          const id = (await create(maker, { events: ['*'] })).body.data.id
          const path = `/webhook-endpoints/${id}`
          const before = await ctx.store.getWebhookEndpoint(tenantId, id)
          const narrower = ctx.client(tenantId, ['webhooks.write', 'tickets.read'])
          for (const call of [
            () => narrower.call<ErrorBody>('PATCH', path, { body: { url: EVIL } }),
            () => narrower.call<ErrorBody>('PATCH', path, { body: { status: 'enabled' } }),
            () => narrower.call<ErrorBody>('POST', `${path}/rotate-secret`),
          ]) {
            const refused = await call()
            expect(refused.status).toBe(403)
            expect(refused.body.details).toEqual({ requiredScopes: ['users.read', 'companies.read'] })
          }
          expect(await ctx.store.getWebhookEndpoint(tenantId, id)).toEqual(before)
        })

        it('a key reading all it delivers may change url, status and the secret: each re-binds to it', async () => {
          const { tenantId, h } = await tenant()
          const id = (await create(h, { events: ['ticket.created', 'user.created'] })).body.data.id
          const path = `/webhook-endpoints/${id}`
          const scopesOf = async () => (await ctx.store.getWebhookEndpoint(tenantId, id))?.eventScopes
          expect(await scopesOf()).toEqual([...SCOPES])
          const reader = ctx.client(tenantId, ['webhooks.write', 'users.read', 'tickets.read'])
          expect((await reader.call('PATCH', path, { body: { url: 'https://new.example.com/in' } })).status).toBe(200)
          expect(await scopesOf()).toEqual(['webhooks.write', 'users.read', 'tickets.read'])
          const other = ctx.client(tenantId, ['tickets.read', 'users.read', 'webhooks.write', 'goals.read'])
          expect((await other.call('PATCH', path, { body: { status: 'disabled' } })).status).toBe(200)
          expect(await scopesOf()).toEqual(['tickets.read', 'users.read', 'webhooks.write', 'goals.read'])
          expect((await reader.call('POST', `${path}/rotate-secret`)).status).toBe(200)
          expect(await scopesOf()).toEqual(['webhooks.write', 'users.read', 'tickets.read'])
          const after = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(delivered(after)).toEqual(['ticket.created', 'user.created'])
        })

        it('a ["*"] endpoint re-bound by a key that reads more delivers what that key reads', async () => {
          const { tenantId } = await tenant()
          const maker = ctx.client(tenantId, ['webhooks.write', 'tickets.read'])
          const id = (await create(maker, { events: ['*'] })).body.data.id
          const wider = ctx.client(tenantId, ['webhooks.write', 'tickets.read', 'companies.read'])
          const path = `/webhook-endpoints/${id}`
          expect((await wider.call('PATCH', path, { body: { url: 'https://new.example.com/in' } })).status).toBe(200)
          const stored = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(stored?.eventScopes).toEqual(['webhooks.write', 'tickets.read', 'companies.read'])
          expect(delivered(stored)).toEqual(EVENT_TYPES.filter((t) => /^(ticket|company)\./.test(t)))
        })

        it('new events need only the types they name: a weak key may replace them, and is bound', async () => {
          const { tenantId, h } = await tenant()
          const id = (await create(h, { events: ['*'] })).body.data.id
          const path = `/webhook-endpoints/${id}`
          const ticketsOnly = ctx.client(tenantId, ['webhooks.write', 'tickets.read'])
          const named = await ticketsOnly.call<Reply<'updateWebhookEndpoint'>>('PATCH', path, {
            body: { url: EVIL, events: ['ticket.updated'] },
          })
          expect(named.status).toBe(200)
          let stored = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(stored?.eventScopes).toEqual(['webhooks.write', 'tickets.read'])
          expect(delivered(stored)).toEqual(['ticket.updated'])
          // ["*"] set by a key with webhook scopes only means what it reads: nothing.
          const weak = ctx.client(tenantId, ['webhooks.write'])
          expect((await weak.call('PATCH', path, { body: { events: ['*'] } })).status).toBe(200)
          stored = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(stored?.eventScopes).toEqual(['webhooks.write'])
          expect(delivered(stored)).toEqual([])
          const refused = await weak.call<ErrorBody>('PATCH', path, {
            body: { events: ['user.created', 'company.deleted'] },
          })
          expect(refused.body.details).toEqual({ requiredScopes: ['users.read', 'companies.read'] })
        })

        it('a description-only PATCH needs no read scope and keeps the binding', async () => {
          const { tenantId, h } = await tenant()
          const id = (await create(h, { events: ['*'] })).body.data.id
          const weak = ctx.client(tenantId, ['webhooks.write'])
          const patched = await weak.call('PATCH', `/webhook-endpoints/${id}`, { body: { description: 'renamed' } })
          expect(patched.status).toBe(200)
          const stored = await ctx.store.getWebhookEndpoint(tenantId, id)
          expect(stored).toMatchObject({ description: 'renamed', eventScopes: [...SCOPES] })
        })
      })

      it('webhooks.read reads but does not write', async () => {
        const { h } = await tenant(['webhooks.read'])
        expect((await h.call('GET', '/webhook-endpoints')).status).toBe(200)
        const refused = await create(h)
        expect(refused.status).toBe(403)
        expect(refused.body.details).toEqual({ requiredScopes: ['webhooks.write'] })
      })
    })

    describe('limits', () => {
      it('at most 20 endpoints per tenant: the 21st is a 400; deleting one makes room', async () => {
        const { h } = await tenant()
        const ids: string[] = []
        for (let n = 0; n < 20; n++) ids.push((await create(h)).body.data.id)
        const over = await create(h)
        expectValidationError(over, 'body', '')
        expect((over.body.details as ValidationIssue[])[0]?.message).toBe(
          'A tenant may have at most 20 webhook endpoints',
        )
        await h.call<Reply<'deleteWebhookEndpoint'>>('DELETE', `/webhook-endpoints/${ids[0]}`)
        expect((await create(h)).status).toBe(201)
      })

      it('30 concurrent creates make exactly 20 endpoints', async () => {
        const { tenantId, h } = await tenant()
        const results = await Promise.all(Array.from({ length: 30 }, () => create(h)))
        expect(results.filter((r) => r.status === 201)).toHaveLength(20)
        expect(results.filter((r) => r.status === 400)).toHaveLength(10)
        expect(await ctx.store.listWebhookEndpoints(tenantId)).toHaveLength(20)
      })

      it('concurrent PATCHes and rotations lose no update', async () => {
        const { tenantId, h } = await tenant()
        const id = (await create(h)).body.data.id
        const path = `/webhook-endpoints/${id}`
        const calls = await Promise.all([
          ...Array.from({ length: 5 }, () => h.call('POST', `${path}/rotate-secret`)),
          h.call('PATCH', path, { body: { description: 'kept' } }),
        ])
        expect(calls.map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 200])
        const stored = (await ctx.store.getWebhookEndpoint(tenantId, id))!
        expect(stored.description).toBe('kept')
        expect(stored.secrets).toHaveLength(6)
        expect(stored.version).toBe(7)
      })
    })

    describe('isolation', () => {
      it('a tenant never sees, changes or deletes another tenant’s endpoint', async () => {
        const one = await tenant()
        const two = await tenant()
        const theirs = (await create(one.h)).body.data
        const path = `/webhook-endpoints/${theirs.id}`
        expect((await two.h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')).body.data).toEqual([])
        for (const [method, suffix, body] of [
          ['GET', '', undefined],
          ['PATCH', '', { status: 'disabled' }],
          ['POST', '/rotate-secret', undefined],
          ['GET', '/deliveries', undefined],
          ['DELETE', '', undefined],
        ] as const) {
          const result = await two.h.call(method, `${path}${suffix}`, body === undefined ? {} : { body })
          expect(result.status, `${method} ${suffix}`).toBe(404)
        }
        const after = await ctx.store.getWebhookEndpoint(one.tenantId, theirs.id)
        expect(after).toMatchObject({ status: 'enabled', version: 1, secrets: [{ secret: theirs.secret }] })
      })

      it('the fixture tenants each see only their own endpoint', async () => {
        const a = await ctx.a.h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')
        const b = await ctx.b.h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')
        expect(a.body.data.map((e: { id: string }) => e.id)).toEqual([webhookEndpointId(ctx.a.ids)])
        expect(b.body.data.map((e: { id: string }) => e.id)).toEqual([webhookEndpointId(ctx.b.ids)])
      })
    })
  })
}
