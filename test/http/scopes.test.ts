import { describe, expect, it } from 'vitest'
import { memoryRateLimiter, operations, SCOPES, type Scope, type ErrorBody } from 'tenant-public-api'
import { testKey, type Reply } from 'tenant-public-api/testing'
import { sampleOf, setup, snapshot, TENANT } from './fixture.js'

/** The scopes that grant `scope`: itself and, for `X.read`, `X.write`. */
function granting(scope: Scope): Scope[] {
  return SCOPES.filter((s) => s === scope || (scope.endsWith('.read') && s === scope.replace(/\.read$/, '.write')))
}

describe('scopes', () => {
  it('every operation answers 403 INSUFFICIENT_SCOPE with requiredScopes to a key with every other scope', async () => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of operations) {
      const others = SCOPES.filter((s) => !granting(operation.scope).includes(s))
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
