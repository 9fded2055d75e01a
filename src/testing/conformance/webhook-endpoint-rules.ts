/**
 * Webhook endpoints’ rules (docs/extensions.md section 4): what a body must hold, the limit of 20 per
 * tenant (under concurrent creates too), no lost update, and tenant isolation.
 */
import { expect, it } from 'vitest'
import type { ValidationIssue } from '../../http/errors.js'
import { EVENT_TYPES } from '../../model/events.js'
import { webhookEndpoints } from '../../model/webhook-endpoints.js'
import type { Reply } from '../harness.js'
import type { ConformanceContext } from './context.js'
import { expectValidationError } from './validation.js'
import { storedEndpoints, webhookEndpointId } from './webhook-fixtures.js'
import { endpointKit, URL_OK } from './webhook-endpoint-kit.js'

/**
 * Registers the webhook endpoint validation tests, in the `validation` group.
 *
 * @example
 * describe('validation', () => endpointValidation(ctx))
 */
export function endpointValidation(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
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
      expect(await storedEndpoints(ctx.store, tenantId)).toEqual([])
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
}

/**
 * Registers the webhook endpoint limit and concurrency tests, in the `limits` group.
 *
 * @example
 * describe('limits', () => endpointLimits(ctx))
 */
export function endpointLimits(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
  it('at most 20 endpoints per tenant: the 21st is a 400; deleting one makes room', async () => {
    const { h } = await tenant()
    const ids: string[] = []
    for (let n = 0; n < 20; n++) ids.push((await create(h)).body.data.id)
    const over = await create(h)
    expectValidationError(over, 'body', '')
    expect((over.body.details as ValidationIssue[])[0]?.message).toBe('A tenant may have at most 20 webhook endpoints')
    // The maximum bounds inserts only: an endpoint of a full tenant still changes.
    const patched = await h.call('PATCH', `/webhook-endpoints/${ids[1]}`, { body: { description: 'at the limit' } })
    expect(patched.status, 'PATCH at the limit').toBe(200)
    await h.call<Reply<'deleteWebhookEndpoint'>>('DELETE', `/webhook-endpoints/${ids[0]}`)
    expect((await create(h)).status).toBe(201)
  })

  it('30 concurrent creates make exactly 20 endpoints', async () => {
    const { tenantId, h } = await tenant()
    const results = await Promise.all(Array.from({ length: 30 }, () => create(h)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(20)
    expect(results.filter((r) => r.status === 400)).toHaveLength(10)
    expect(await storedEndpoints(ctx.store, tenantId)).toHaveLength(20)
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
    const stored = (await ctx.store.get(webhookEndpoints, tenantId, id))!
    expect(stored.description).toBe('kept')
    expect(stored.secrets).toHaveLength(6)
    expect(stored.version).toBe(7)
  })
}

/**
 * Registers the webhook endpoint tenant-isolation tests, in the `isolation` group.
 *
 * @example
 * describe('isolation', () => endpointIsolation(ctx))
 */
export function endpointIsolation(ctx: ConformanceContext): void {
  const { tenant, create } = endpointKit(ctx)
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
    const after = await ctx.store.get(webhookEndpoints, one.tenantId, theirs.id)
    expect(after).toMatchObject({ status: 'enabled', version: 1, secrets: [{ secret: theirs.secret }] })
  })

  it('the fixture tenants each see only their own endpoint', async () => {
    const a = await ctx.a.h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')
    const b = await ctx.b.h.call<Reply<'listWebhookEndpoints'>>('GET', '/webhook-endpoints')
    expect(a.body.data.map((e: { id: string }) => e.id)).toEqual([webhookEndpointId(ctx.a.ids)])
    expect(b.body.data.map((e: { id: string }) => e.id)).toEqual([webhookEndpointId(ctx.b.ids)])
  })
}
