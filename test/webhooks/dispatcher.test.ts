/**
 * The webhook dispatcher against a local receiver, on every store (docs/webhooks.md): deliveries
 * verify with standardwebhooks itself (with either secret during a rotation), carry the event as
 * GET /events shows it, follow the retry schedule, honour type filters and disabled endpoints,
 * disable an endpoint after 5 days of failures, stay within their tenant, never follow a redirect,
 * and are refused at delivery time when the host resolves to a private address.
 */
import { Webhook } from 'standardwebhooks'
import { createMemoryStore, type Store, webhookEndpoints } from 'tenant-public-api'
import { createWebhookDispatcher, WebhookFeedGapError, type WebhookDispatcherOptions } from 'tenant-public-api/webhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Reply } from 'tenant-public-api/testing'
import { apiClient, company, manualClock, type Receiver, STORES, startReceiver } from './support.js'

const DAY = 24 * 60 * 60 * 1000

describe.each(STORES)('the webhook dispatcher on %s', (_name, createStore) => {
  let store: Store
  let receiver: Receiver
  const errors: unknown[] = []
  beforeEach(async () => {
    store = await createStore()
    receiver = await startReceiver()
    errors.length = 0
  })
  afterEach(async () => {
    await receiver.close()
    await store.close()
  })

  const dispatcher = (options: Partial<WebhookDispatcherOptions> = {}) =>
    createWebhookDispatcher({ store, allowInsecureUrls: true, onError: (e) => errors.push(e), ...options })

  async function tenantWithEndpoint(events: string[] = ['*'], path = '/in') {
    const tenantId = `tenant-${crypto.randomUUID()}`
    const h = apiClient(store, tenantId)
    const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url: `${receiver.url}${path}`, events },
    })
    expect(created.status).toBe(201)
    return { tenantId, h, id: created.body.data.id as string, secret: created.body.data.secret as string }
  }

  it('delivers each later event once, signed, with the body GET /events shows; records it succeeded', async () => {
    const tenantId = `tenant-${crypto.randomUUID()}`
    await store.seed(tenantId, { companies: [company(1)] }) // before the endpoint: not delivered
    const h = apiClient(store, tenantId)
    const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url: `${receiver.url}/in`, events: ['*'] },
    })
    const { id, secret } = created.body.data
    await store.seed(tenantId, { companies: [company(2), company(3)] })
    const counts = await dispatcher().runOnce()
    expect(counts).toEqual({ enqueued: 2, delivered: 2, retrying: 0, failed: 0, dropped: 0 })
    expect(await dispatcher().runOnce()).toEqual({ enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 })
    const feed = await h.call<Reply<'listEvents'>>('GET', '/events?limit=10')
    const later = feed.body.data.slice(1)
    expect(receiver.received.map((r) => r.body)).toEqual(later.map((e: unknown) => JSON.stringify(e)))
    for (const got of receiver.received) {
      expect(got.path).toBe('/in')
      expect(got.headers['content-type']).toBe('application/json')
      const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>)
      expect(verified).toEqual(JSON.parse(got.body))
      expect(got.headers['webhook-id']).toBe(JSON.parse(got.body).id)
    }
    const deliveries = await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)
    expect(deliveries.status).toBe(200)
    expect(deliveries.body.data).toHaveLength(2)
    for (const delivery of deliveries.body.data) {
      expect(delivery).toMatchObject({ attempt: 1, status: 'succeeded', responseStatus: 204, error: null })
      expect(delivery.nextAttemptAt).toBeNull()
    }
    expect(deliveries.body.data.map((d: { eventId: string }) => d.eventId).sort()).toEqual(
      later.map((e: { id: string }) => e.id),
    )
    expect(errors).toEqual([])
  })

  it('reads the feed within maxEventsReadBytes: with a budget below every event, each is delivered once', async () => {
    const { tenantId, h } = await tenantWithEndpoint()
    await store.seed(tenantId, { companies: [1, 2, 3, 4, 5].map((n) => company(n)) })
    const counts = await dispatcher({ maxEventsReadBytes: 1 }).runOnce()
    expect(counts).toEqual({ enqueued: 5, delivered: 5, retrying: 0, failed: 0, dropped: 0 })
    const feed = await h.call<Reply<'listEvents'>>('GET', '/events?limit=10')
    expect(receiver.received.map((r) => r.body).sort()).toEqual(feed.body.data.map((e) => JSON.stringify(e)).sort())
    expect(errors).toEqual([])
  })

  it('signs with both secrets during a rotation: either verifies with standardwebhooks', async () => {
    const { tenantId, h, id, secret: old } = await tenantWithEndpoint()
    const rotated = await h.call<Reply<'rotateWebhookEndpointSecret'>>('POST', `/webhook-endpoints/${id}/rotate-secret`)
    const fresh = rotated.body.data.secret as string
    await store.seed(tenantId, { companies: [company(1)] })
    await dispatcher().runOnce()
    const [got] = receiver.received
    expect(String(got?.headers['webhook-signature']).split(' ')).toHaveLength(2)
    const headers = got!.headers as Record<string, string>
    expect(new Webhook(old).verify(got!.body, headers)).toEqual(JSON.parse(got!.body))
    expect(new Webhook(fresh).verify(got!.body, headers)).toEqual(JSON.parse(got!.body))
  })

  it('retries on the schedule (recorded pending with nextAttemptAt), then fails after the last', async () => {
    const clock = manualClock()
    const { tenantId, h, id } = await tenantWithEndpoint()
    receiver.answer = () => ({ status: 503 })
    await store.seed(tenantId, { companies: [company(1)] })
    const d = dispatcher({ now: clock.now, retryScheduleMs: [1_000, 60_000] })
    expect(await d.runOnce()).toMatchObject({ enqueued: 1, retrying: 1 })
    expect(await d.runOnce()).toMatchObject({ retrying: 0, failed: 0 }) // not due yet
    clock.advance(999)
    expect((await d.runOnce()).retrying).toBe(0)
    clock.advance(1)
    expect((await d.runOnce()).retrying).toBe(1)
    clock.advance(59_999)
    expect((await d.runOnce()).failed).toBe(0)
    clock.advance(1)
    expect((await d.runOnce()).failed).toBe(1)
    clock.advance(DAY)
    expect(await d.runOnce()).toEqual({ enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 })
    expect(receiver.received).toHaveLength(3)
    const list = (await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)).body.data
    const start = clock.now().getTime() - DAY - 61_000
    expect(list.map((x) => [x.attempt, x.status])).toEqual([
      [3, 'failed'],
      [2, 'pending'],
      [1, 'pending'],
    ])
    expect(list[2]).toMatchObject({ error: `${new URL(receiver.url).host}: status 503`, responseStatus: 503 })
    expect(list[2]?.nextAttemptAt).toBe(new Date(start + 1_000).toISOString())
    expect(list[1]?.nextAttemptAt).toBe(new Date(start + 61_000).toISOString())
    expect(list[0]?.nextAttemptAt).toBeNull()
  })

  it('a retry that succeeds ends the job: the attempt is recorded succeeded', async () => {
    const clock = manualClock()
    const { tenantId, h, id } = await tenantWithEndpoint()
    let calls = 0
    receiver.answer = () => ({ status: ++calls === 1 ? 500 : 200 })
    await store.seed(tenantId, { companies: [company(1)] })
    const d = dispatcher({ now: clock.now, retryScheduleMs: [5_000] })
    await d.runOnce()
    clock.advance(5_000)
    expect(await d.runOnce()).toMatchObject({ delivered: 1 })
    const list = (await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)).body.data
    expect(list.map((x: { status: string }) => x.status)).toEqual(['succeeded', 'pending'])
  })

  it('delivers only the types an endpoint subscribes to', async () => {
    const { tenantId } = await tenantWithEndpoint(['company.updated'])
    await store.seed(tenantId, { companies: [company(1), company(2)] })
    await store.seed(tenantId, { companies: [company(1, 'Renamed')] })
    expect(await dispatcher().runOnce()).toMatchObject({ enqueued: 1, delivered: 1 })
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['company.updated'])
  })

  it('a disabled endpoint gets nothing: no new events, no pending retries; re-enabled, later ones', async () => {
    const clock = manualClock()
    const { tenantId, h, id } = await tenantWithEndpoint()
    receiver.answer = () => ({ status: 500 })
    await store.seed(tenantId, { companies: [company(1)] })
    const d = dispatcher({ now: clock.now, retryScheduleMs: [1_000] })
    expect(await d.runOnce()).toMatchObject({ retrying: 1 })
    expect((await h.call('PATCH', `/webhook-endpoints/${id}`, { body: { status: 'disabled' } })).status).toBe(200)
    await store.seed(tenantId, { companies: [company(2)] })
    clock.advance(1_000)
    expect(await d.runOnce()).toEqual({ enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 1 })
    expect(receiver.received).toHaveLength(1)
    receiver.answer = () => ({ status: 204 })
    await h.call('PATCH', `/webhook-endpoints/${id}`, { body: { status: 'enabled' } })
    await store.seed(tenantId, { companies: [company(3)] })
    expect(await d.runOnce()).toMatchObject({ enqueued: 1, delivered: 1, dropped: 0 })
    expect(JSON.parse(receiver.received[1]!.body).resource.id).toBe(company(3).id)
  })

  it('disables an endpoint whose deliveries have all failed for 5 days (failing), as a PATCH would', async () => {
    const clock = manualClock(Date.now() + 60_000)
    const { tenantId, h, id } = await tenantWithEndpoint()
    const before = (await store.get(webhookEndpoints, tenantId, id))!
    receiver.answer = () => ({ status: 500 })
    const d = dispatcher({ now: clock.now, retryScheduleMs: [] })
    await store.seed(tenantId, { companies: [company(1)] })
    expect(await d.runOnce()).toMatchObject({ failed: 1 })
    clock.advance(5 * DAY - 1)
    await store.seed(tenantId, { companies: [company(2)] })
    expect(await d.runOnce()).toMatchObject({ failed: 1 })
    expect((await h.call<Reply<'getWebhookEndpoint'>>('GET', `/webhook-endpoints/${id}`)).body.data.status).toBe(
      'enabled',
    )
    clock.advance(1)
    await store.seed(tenantId, { companies: [company(3)] })
    expect(await d.runOnce()).toMatchObject({ failed: 1 })
    const after = (await store.get(webhookEndpoints, tenantId, id))!
    expect(after).toMatchObject({ status: 'disabled', disabledReason: 'failing', version: before.version + 1 })
    expect(after.updatedAt).toBe(clock.now().toISOString())
    await store.seed(tenantId, { companies: [company(4)] })
    expect(await d.runOnce()).toMatchObject({ enqueued: 0 })
    expect(receiver.received).toHaveLength(3)
  })

  it('a success in between restarts the count of failing days', async () => {
    const clock = manualClock(Date.now() + 60_000)
    const { tenantId, id } = await tenantWithEndpoint()
    const d = dispatcher({ now: clock.now, retryScheduleMs: [] })
    receiver.answer = () => ({ status: 500 })
    await store.seed(tenantId, { companies: [company(1)] })
    await d.runOnce()
    clock.advance(3 * DAY)
    receiver.answer = () => ({ status: 200 })
    await store.seed(tenantId, { companies: [company(2)] })
    await d.runOnce()
    clock.advance(3 * DAY)
    receiver.answer = () => ({ status: 500 })
    await store.seed(tenantId, { companies: [company(3)] })
    await d.runOnce()
    expect((await store.get(webhookEndpoints, tenantId, id))?.status).toBe('enabled')
  })

  it("keeps tenants apart: an endpoint never receives another tenant's events", async () => {
    const a = await tenantWithEndpoint(['*'], '/a')
    const b = await tenantWithEndpoint(['*'], '/b')
    await store.seed(a.tenantId, { companies: [company(1, 'A one')] })
    await store.seed(b.tenantId, { companies: [company(1, 'B one'), company(2, 'B two')] })
    await dispatcher().runOnce()
    const names = (path: string) =>
      receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).data.object.name)
    expect(names('/a')).toEqual(['A one'])
    expect(names('/b').sort()).toEqual(['B one', 'B two'])
    for (const got of receiver.received) {
      const secret = got.path === '/a' ? a.secret : b.secret
      expect(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow()
    }
  })

  it('does not follow a redirect: the attempt fails with the 3xx recorded', async () => {
    const { tenantId, h, id } = await tenantWithEndpoint(['*'], '/moved')
    receiver.answer = (got) =>
      got.path === '/moved' ? { status: 307, headers: { location: `${receiver.url}/elsewhere` } } : { status: 204 }
    await store.seed(tenantId, { companies: [company(1)] })
    expect(await dispatcher({ retryScheduleMs: [] }).runOnce()).toMatchObject({ failed: 1 })
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved'])
    const [delivery] = (await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)).body
      .data
    expect(delivery).toMatchObject({
      status: 'failed',
      responseStatus: 307,
      error: `${new URL(receiver.url).host}: status 307`,
    })
  })

  it('shows a tenant a failed TLS handshake as a short reason with the host, never OpenSSL’s words', async () => {
    const tenantId = `tenant-${crypto.randomUUID()}`
    const h = apiClient(store, tenantId)
    // The receiver speaks plain HTTP: an https URL to it fails in the TLS handshake.
    const url = `${receiver.url.replace(/^http:/, 'https:')}/in`
    const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url, events: ['*'] },
    })
    await store.seed(tenantId, { companies: [company(1)] })
    expect(await dispatcher({ retryScheduleMs: [] }).runOnce()).toMatchObject({ failed: 1 })
    const shown = await h.call<Reply<'listWebhookDeliveries'>>(
      'GET',
      `/webhook-endpoints/${created.body.data.id}/deliveries`,
    )
    expect(shown.body.data[0]).toMatchObject({
      status: 'failed',
      responseStatus: null,
      error: `${new URL(url).host}: TLS handshake failed`,
    })
    expect(JSON.stringify(shown.body)).not.toMatch(/ssl|\.c:|EPROTO|routines/i)
    expect(errors).toEqual([])
  })

  it('refuses a host resolving to a private address at delivery, not connecting, not naming its address', async () => {
    const tenantId = `tenant-${crypto.randomUUID()}`
    const h = apiClient(store, tenantId)
    const port = new URL(receiver.url).port
    const url = `https://db.internal-corp.test:${port}/in`
    const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
      body: { url, events: ['*'] },
    })
    expect(created.status).toBe(201)
    await store.seed(tenantId, { companies: [company(1)] })
    const d = createWebhookDispatcher({
      store,
      retryScheduleMs: [],
      resolver: async () => [{ address: '10.20.30.40', family: 4 }],
      onError: (e) => errors.push(e),
    })
    expect(await d.runOnce()).toMatchObject({ failed: 1 })
    expect(receiver.connections).toBe(0)
    const shown = await h.call<Reply<'listWebhookDeliveries'>>(
      'GET',
      `/webhook-endpoints/${created.body.data.id}/deliveries`,
    )
    expect(shown.body.data[0]).toMatchObject({
      status: 'failed',
      responseStatus: null,
      error: `db.internal-corp.test:${port}: no public address`,
    })
    // The tenant learns nothing of the operator's DNS: the address is nowhere in the answer.
    expect(JSON.stringify(shown.body)).not.toContain('10.20.30.40')
  })

  it('a deleted endpoint takes its pending jobs with it', async () => {
    const clock = manualClock()
    const { tenantId, h, id } = await tenantWithEndpoint()
    receiver.answer = () => ({ status: 500 })
    await store.seed(tenantId, { companies: [company(1)] })
    const d = dispatcher({ now: clock.now, retryScheduleMs: [1_000] })
    await d.runOnce()
    expect((await h.call('DELETE', `/webhook-endpoints/${id}`)).status).toBe(200)
    clock.advance(1_000)
    expect(await d.runOnce()).toEqual({ enqueued: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 })
    expect(receiver.received).toHaveLength(1)
  })

  it('leaves a job whose attempt could not end within its lease to the lease (no POST, nothing recorded)', async () => {
    const clock = manualClock()
    const { tenantId, h, id } = await tenantWithEndpoint()
    await store.seed(tenantId, { companies: [company(1)] })
    const leaseMs = 20_000
    const timeoutMs = 10_000
    let slow = true
    // A store that takes longer than the lease's margin to read the endpoint after the claim.
    const slowStore: Store = {
      ...store,
      async get(collection, t, e, request) {
        if (slow && collection === webhookEndpoints) clock.advance(leaseMs - timeoutMs)
        return store.get(collection, t, e, request)
      },
    }
    const d = createWebhookDispatcher({ store: slowStore, allowInsecureUrls: true, now: clock.now, leaseMs, timeoutMs })
    expect(await d.runOnce()).toMatchObject({ enqueued: 1, delivered: 0, failed: 0, retrying: 0 })
    expect(receiver.received).toHaveLength(0)
    slow = false
    expect(await d.runOnce(), 'still leased').toMatchObject({ delivered: 0 })
    clock.advance(leaseMs)
    expect(await d.runOnce(), 'after the lease').toMatchObject({ delivered: 1 })
    const list = (await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)).body.data
    expect(list.map((x: { attempt: number; status: string }) => [x.attempt, x.status])).toEqual([[1, 'succeeded']])
  })

  it('reuses one connection for deliveries to one address; stop() closes it', async () => {
    const { tenantId } = await tenantWithEndpoint()
    await store.seed(tenantId, { companies: [1, 2, 3, 4, 5].map((n) => company(n)) })
    const d = dispatcher({ concurrency: 1 })
    expect(await d.runOnce()).toMatchObject({ delivered: 5 })
    expect(receiver.connections, 'connections accepted').toBe(1)
    expect(receiver.open, 'kept open').toBe(1)
    await d.stop()
    for (let i = 0; i < 100 && receiver.open > 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect(receiver.open, 'after stop()').toBe(0)
  })

  it('start() delivers in the background; stop() waits for the delivery in flight, then claims nothing', async () => {
    const { tenantId, h, id } = await tenantWithEndpoint()
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    receiver.answer = async () => {
      await held
      return { status: 204 }
    }
    const d = dispatcher({ pollIntervalMs: 20 })
    d.start()
    await store.seed(tenantId, { companies: [company(1)] })
    for (let i = 0; i < 400 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 25))
    expect(receiver.received).toHaveLength(1)
    let stopped = false
    const stopping = d.stop().then(() => (stopped = true))
    await new Promise((r) => setTimeout(r, 100))
    expect(stopped).toBe(false)
    release()
    await stopping
    const [delivery] = (await h.call<Reply<'listWebhookDeliveries'>>('GET', `/webhook-endpoints/${id}/deliveries`)).body
      .data
    expect(delivery).toMatchObject({ status: 'succeeded', responseStatus: 204 })
    await store.seed(tenantId, { companies: [company(2)] })
    await new Promise((r) => setTimeout(r, 100))
    expect(receiver.received).toHaveLength(1)
  })
})

describe.each(STORES)('the webhook dispatcher on %s, with a pruned feed', (_name, createStore) => {
  it('skips to the oldest event kept and reports a WebhookFeedGapError', async () => {
    const store = await createStore(300)
    const receiver = await startReceiver()
    try {
      const tenantId = `tenant-${crypto.randomUUID()}`
      const h = apiClient(store, tenantId)
      const created = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', {
        body: { url: `${receiver.url}/in`, events: ['*'] },
      })
      await store.seed(tenantId, { companies: [company(1)] })
      await new Promise((resolve) => setTimeout(resolve, 400))
      await store.seed(tenantId, { companies: [company(2)] }) // prunes the first event
      const errors: unknown[] = []
      const d = createWebhookDispatcher({ store, allowInsecureUrls: true, onError: (e) => errors.push(e) })
      expect(await d.runOnce()).toMatchObject({ enqueued: 1, delivered: 1 })
      expect(errors).toHaveLength(1)
      expect(errors[0]).toBeInstanceOf(WebhookFeedGapError)
      expect(errors[0]).toMatchObject({ tenantId, endpointId: created.body.data.id, position: 0 })
      expect(receiver.received.map((r) => JSON.parse(r.body).resource.id)).toEqual([company(2).id])
    } finally {
      await receiver.close()
      await store.close()
    }
  })
})

describe('createWebhookDispatcher options', () => {
  it('refuses a lease that does not exceed the timeout, and malformed numbers, with a TypeError', () => {
    const store = createMemoryStore()
    expect(() => createWebhookDispatcher({ store, timeoutMs: 5_000, leaseMs: 5_000 })).toThrow(
      new TypeError('leaseMs must exceed timeoutMs, or two processes could run one attempt'),
    )
    expect(() => createWebhookDispatcher({ store, concurrency: 0 })).toThrow(TypeError)
    for (const maxEventsReadBytes of [0, 1.5, Number.NaN, 2 ** 60])
      expect(() => createWebhookDispatcher({ store, maxEventsReadBytes })).toThrow(
        /^maxEventsReadBytes must be a positive integer\. The options of createWebhookDispatcher: store, /,
      )
    expect(() => createWebhookDispatcher({ store, retryScheduleMs: [-1] })).toThrow(TypeError)
    expect(() => createWebhookDispatcher({ store, pollIntervalMs: Number.NaN })).toThrow(TypeError)
    expect(() => createWebhookDispatcher({ store: {} as Store })).toThrow(TypeError)
  })
})
