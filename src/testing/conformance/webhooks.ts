/**
 * Webhook endpoints (docs/extensions.md section 4): create, list, get, update, delete, rotate the
 * secret and list delivery attempts; secrets shown only by create and rotate; the URL rules, the
 * event types a key may subscribe to (webhook-endpoint-scopes.ts), the limit of 20 per tenant
 * (under concurrent creates too) and tenant isolation (webhook-endpoint-rules.ts).
 */
import { describe, expect, it } from 'vitest'
import { webhookEndpoints } from '../../model/webhook-endpoints.js'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { expectValidationError } from './validation.js'
import { DAY_MS, delivery, endpointKit, ISO, SECRET, texts, URL_OK } from './webhook-endpoint-kit.js'
import { endpointScopes } from './webhook-endpoint-scopes.js'
import { endpointIsolation, endpointLimits, endpointValidation } from './webhook-endpoint-rules.js'

/**
 * Registers the webhook endpoint tests.
 *
 * @example
 * webhooks(ctx)
 */
export function webhooks(ctx: ConformanceContext): void {
  describe('webhook endpoints', () => {
    createListAndGet(ctx)
    updateAndRotate(ctx)
    deleteAndDeliveries(ctx)
    describe('validation', () => endpointValidation(ctx))
    describe('scopes', () => endpointScopes(ctx))
    describe('limits', () => endpointLimits(ctx))
    describe('isolation', () => endpointIsolation(ctx))
  })
}

/** Registers the tests of creating, listing and getting endpoints, and where secrets show. */
function createListAndGet(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
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
    const stored = await ctx.store.get(webhookEndpoints, tenantId, data.id)
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
}

/** Registers the tests of PATCH, event de-duplication and secret rotation. */
function updateAndRotate(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
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
    expect((await ctx.store.get(webhookEndpoints, tenantId, created.id))?.secrets).toEqual([
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
    const secrets = (await ctx.store.get(webhookEndpoints, tenantId, created.id))!.secrets
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
    const after = (await ctx.store.get(webhookEndpoints, tenantId, created.id))!.secrets
    expect(after.map((s) => s.secret)).toEqual([again.body.data.secret, rotated.body.data.secret, created.secret])
    expect(after[2]!.expiresAt).toBe(secrets[1]!.expiresAt)
  })
}

/** Registers the tests of DELETE and of listing delivery attempts. */
function deleteAndDeliveries(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
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
}
