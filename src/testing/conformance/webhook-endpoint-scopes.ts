/**
 * Webhook endpoints and scopes (docs/extensions.md section 4): a key subscribes only to the event types
 * it may read, and every change but a description binds the endpoint to a key that reads all it delivers.
 */
import { describe, expect, it } from 'vitest'
import { SCOPES } from '../../http/auth.js'
import type { ErrorBody } from '../../http/errors.js'
import { EVENT_TYPES } from '../../model/events.js'
import { endpointWantsEvent, type WebhookEndpointRecord, webhookEndpoints } from '../../model/webhook-endpoints.js'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { endpointKit } from './webhook-endpoint-kit.js'
import { storedEndpoints } from './webhook-fixtures.js'

const delivered = (record: WebhookEndpointRecord | null) =>
  EVENT_TYPES.filter((type) => record !== null && endpointWantsEvent(record, type))
const EVIL = 'https://receiver.attacker.example/in'

/**
 * Registers the webhook endpoint scope tests, in the `scopes` group.
 *
 * @example
 * describe('scopes', () => endpointScopes(ctx))
 */
export function endpointScopes(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
  it('a key may subscribe only to types it may read: 403 naming the scopes it lacks', async () => {
    const { tenantId, h } = await tenant(['webhooks.write', 'tickets.read'])
    const refused = await create(h, { events: ['ticket.created', 'budget.updated', 'user.deleted'] })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE')
    expect(refused.body.details).toEqual({ requiredScopes: ['budgets.write', 'users.read'] })
    expect(await storedEndpoints(ctx.store, tenantId)).toEqual([])
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
    const stored = await ctx.store.get(webhookEndpoints, tenantId, star.id)
    expect(stored?.eventScopes).toEqual(['webhooks.write', 'budgets.write'])
  })
  describe('binding: each change but a description needs a key that reads all the endpoint delivers', () => {
    bindingRefusals(ctx)
    bindingChanges(ctx)
  })

  it('webhooks.read reads but does not write', async () => {
    const { h } = await tenant(['webhooks.read'])
    expect((await h.call('GET', '/webhook-endpoints')).status).toBe(200)
    const refused = await create(h)
    expect(refused.status).toBe(403)
    expect(refused.body.details).toEqual({ requiredScopes: ['webhooks.write'] })
  })
}

/** Registers the binding tests of changes refused to a key that reads less than the endpoint delivers. */
function bindingRefusals(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
  it('a webhooks.write key may not re-point, re-enable or re-key an admin’s ["*"] endpoint (403)', async () => {
    const { tenantId, h } = await tenant()
    const id = (await create(h, { events: ['*'] })).body.data.id
    const path = `/webhook-endpoints/${id}`
    const before = await ctx.store.get(webhookEndpoints, tenantId, id)
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
    expect(await ctx.store.get(webhookEndpoints, tenantId, id)).toEqual(before)
  })

  it('no silent narrowing: a key reading less than a ["*"] endpoint delivers: 403 naming the rest', async () => {
    const { tenantId } = await tenant()
    const maker = ctx.client(tenantId, ['webhooks.write', 'tickets.read', 'users.read', 'companies.read'])
    const id = (await create(maker, { events: ['*'] })).body.data.id
    const path = `/webhook-endpoints/${id}`
    const before = await ctx.store.get(webhookEndpoints, tenantId, id)
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
    expect(await ctx.store.get(webhookEndpoints, tenantId, id)).toEqual(before)
  })
}

/** Registers the binding tests of changes allowed, and what the endpoint is bound to after them. */
function bindingChanges(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
  it('a key reading all it delivers may change url, status and the secret: each re-binds to it', async () => {
    const { tenantId, h } = await tenant()
    const id = (await create(h, { events: ['ticket.created', 'user.created'] })).body.data.id
    const path = `/webhook-endpoints/${id}`
    const scopesOf = async () => (await ctx.store.get(webhookEndpoints, tenantId, id))?.eventScopes
    expect(await scopesOf()).toEqual([...SCOPES])
    const reader = ctx.client(tenantId, ['webhooks.write', 'users.read', 'tickets.read'])
    expect((await reader.call('PATCH', path, { body: { url: 'https://new.example.com/in' } })).status).toBe(200)
    expect(await scopesOf()).toEqual(['webhooks.write', 'users.read', 'tickets.read'])
    const other = ctx.client(tenantId, ['tickets.read', 'users.read', 'webhooks.write', 'goals.read'])
    expect((await other.call('PATCH', path, { body: { status: 'disabled' } })).status).toBe(200)
    expect(await scopesOf()).toEqual(['tickets.read', 'users.read', 'webhooks.write', 'goals.read'])
    expect((await reader.call('POST', `${path}/rotate-secret`)).status).toBe(200)
    expect(await scopesOf()).toEqual(['webhooks.write', 'users.read', 'tickets.read'])
    const after = await ctx.store.get(webhookEndpoints, tenantId, id)
    expect(delivered(after)).toEqual(['ticket.created', 'user.created'])
  })

  it('a ["*"] endpoint re-bound by a key that reads more delivers what that key reads', async () => {
    const { tenantId } = await tenant()
    const maker = ctx.client(tenantId, ['webhooks.write', 'tickets.read'])
    const id = (await create(maker, { events: ['*'] })).body.data.id
    const wider = ctx.client(tenantId, ['webhooks.write', 'tickets.read', 'companies.read'])
    const path = `/webhook-endpoints/${id}`
    expect((await wider.call('PATCH', path, { body: { url: 'https://new.example.com/in' } })).status).toBe(200)
    const stored = await ctx.store.get(webhookEndpoints, tenantId, id)
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
    let stored = await ctx.store.get(webhookEndpoints, tenantId, id)
    expect(stored?.eventScopes).toEqual(['webhooks.write', 'tickets.read'])
    expect(delivered(stored)).toEqual(['ticket.updated'])
    // ["*"] set by a key with webhook scopes only means what it reads: nothing.
    const weak = ctx.client(tenantId, ['webhooks.write'])
    expect((await weak.call('PATCH', path, { body: { events: ['*'] } })).status).toBe(200)
    stored = await ctx.store.get(webhookEndpoints, tenantId, id)
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
    const stored = await ctx.store.get(webhookEndpoints, tenantId, id)
    expect(stored).toMatchObject({ description: 'renamed', eventScopes: [...SCOPES] })
  })
}
