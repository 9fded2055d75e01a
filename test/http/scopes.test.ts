import { describe, expect, it } from 'vitest'
import {
  EVENT_TYPES,
  grantingScopes,
  memoryRateLimiter,
  operations,
  SCOPES,
  type ErrorBody,
  type Scope,
} from 'tenant-public-api'
import { testKey, type Reply } from 'tenant-public-api/testing'
import { sampleOf, setup, snapshot, TENANT } from './fixture.js'

/** The 403's `requiredScopes`, each checked to be a scope of the one table, i.e. one a key can hold. */
function grantable(result: { status: number; body: ErrorBody }, what: string): Scope[] {
  expect(result.status, what).toBe(403)
  expect(result.body.code).toBe('INSUFFICIENT_SCOPE')
  const { requiredScopes } = result.body.details as { requiredScopes: string[] }
  expect(requiredScopes.length, what).toBeGreaterThan(0)
  for (const scope of requiredScopes) expect(SCOPES, `${what}: ${scope}`).toContain(scope)
  return requiredScopes as Scope[]
}

describe('scopes', () => {
  it('every operation answers 403 INSUFFICIENT_SCOPE with requiredScopes to a key with every other scope', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of operations) {
      const others = SCOPES.filter((s) => !grantingScopes(operation.scope).includes(s))
      const sample = sampleOf(operation)
      const result = await h.call<ErrorBody>(operation.method, sample.path, {
        key: testKey(TENANT, others),
        body: sample.body,
      })
      expect(result.status, operation.id).toBe(403)
      expect(result.body.code).toBe('INSUFFICIENT_SCOPE')
      expect(result.body.details).toEqual({ requiredScopes: [operation.scope] })
      expect(result.headers.has('x-ratelimit-limit')).toBe(true)
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('every 403 names scopes a key can hold, and holding them lifts it (operations, feed, webhooks)', async () => {
    const { h } = await setup()
    for (const operation of operations) {
      const sample = sampleOf(operation)
      const call = (scopes: readonly Scope[]) =>
        h.call<ErrorBody>(operation.method, sample.path, { key: testKey(TENANT, scopes), body: sample.body })
      // Grant what each 403 names until none comes (a webhook endpoint's binding may name more).
      let granted: Scope[] = []
      let result = await call(granted)
      for (let round = 0; result.status === 403 && round < 5; round++) {
        granted = [...granted, ...grantable(result, operation.id)]
        result = await call(granted)
      }
      expect(granted.length, operation.id).toBeGreaterThan(0)
      expect(result.status, operation.id).not.toBe(403)
    }
    for (const type of EVENT_TYPES) {
      const feed = (scopes: readonly Scope[]) =>
        h.call<ErrorBody>('GET', `/events?types=${type}`, { key: testKey(TENANT, ['events.read', ...scopes]) })
      expect((await feed(grantable(await feed([]), `GET /events?types=${type}`))).status, type).toBe(200)

      const subscribe = (scopes: readonly Scope[]) =>
        h.call<ErrorBody>('POST', '/webhook-endpoints', {
          key: testKey(TENANT, ['webhooks.write', ...scopes]),
          body: { url: 'https://hooks.example.com/in', events: [type] },
        })
      const created = await subscribe(grantable(await subscribe([]), `subscribe to ${type}`))
      expect(created.status, type).toBe(201)
      const id = (created.body as unknown as { data: { id: string } }).data.id
      expect(
        (await h.call('DELETE', `/webhook-endpoints/${id}`, { key: testKey(TENANT, ['webhooks.write']) })).status,
      ).toBe(200)
    }
  })

  it('every operation succeeds with exactly its own scope (and those its sample needs besides)', async () => {
    for (const operation of operations) {
      const { h } = await setup()
      const sample = sampleOf(operation)
      const result = await h.call(operation.method, sample.path, {
        key: testKey(TENANT, [operation.scope, ...(sample.scopes ?? [])]),
        body: sample.body,
      })
      expect(result.status, operation.id).toBe(operation.successStatus)
    }
  })

  it('X.write grants X.read, and X.read does not grant X.write', async () => {
    const { h } = await setup()
    expect(
      (
        await h.call<Reply<'listReportTemplates'>>('GET', '/report-templates', {
          key: testKey(TENANT, ['reports.write']),
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await h.call<Reply<'listTrainingEnrollments'>>('GET', '/training/enrollments', {
          key: testKey(TENANT, ['training.write']),
        })
      ).status,
    ).toBe(200)
    const readOnly = await h.call<ErrorBody>(
      'DELETE',
      `/training/enrollments/${'0'.repeat(8)}-0000-4000-8000-000000000014`,
      {
        key: testKey(TENANT, ['training.read']),
      },
    )
    expect(readOnly.status).toBe(403)
    expect(readOnly.body.details).toEqual({ requiredScopes: ['training.write'] })
  })

  it('unknown and look-alike scope strings grant nothing', async () => {
    const lookAlikes = [
      ['*'],
      ['admin'],
      ['tickets'],
      ['tickets.*'],
      ['Tickets.Read'],
      ['tickets.read '],
      ['tickets.write.read'],
      ['tickets.writer'],
      ['tickets.write'], // no scope of the table: it grants nothing, tickets.read included
    ]
    const { h } = await setup({
      keyResolver: (token) => ({
        tenantId: TENANT,
        keyId: token,
        scopes: lookAlikes[Number(token)] ?? [],
        actor: { id: 'u', name: 'U' },
      }),
    })
    for (const [index, scopes] of lookAlikes.entries()) {
      const result = await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: String(index) })
      expect(result.status, JSON.stringify(scopes)).toBe(403)
    }
  })

  it('403 wins over 429: a key without the scope keeps getting 403 once its limit is spent', async () => {
    const { h } = await setup({ rateLimiter: memoryRateLimiter({ limit: 2, windowMs: 60_000 }) })
    const key = testKey(TENANT, ['goals.read'])
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await h.call('GET', '/tickets', { key })).status)
    expect(statuses).toEqual([403, 403, 403, 403, 403])
    // The same key, on a route its scope allows, is over its limit.
    const allowed = await h.call('GET', '/goals/00000000-0000-4000-8000-000000000006', { key })
    expect(allowed.status).toBe(429)
  })
})
