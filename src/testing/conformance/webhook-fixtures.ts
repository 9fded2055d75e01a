/**
 * The webhook endpoint of each fixture tenant. Endpoints are not seed data (only the API makes
 * them), so the suite writes one through the store beside each fixture seed, with a fixed id, for
 * the registry-driven tests (success, 404 of unknown and foreign ids) to address.
 */
import { listRequest } from '../../model/list-request.js'
import { type WebhookEndpointRecord, webhookEndpoints } from '../../model/webhook-endpoints.js'
import type { SeedData } from '../../model/seed.js'
import type { Store } from '../../ports/store.js'
import { fixtureId, fixtureIds, type FixtureIds, type FixtureTenant } from './fixtures.js'

/** The fixture kind of webhook endpoint ids (after those of fixtures.ts). */
const WEBHOOK_ENDPOINT_KIND = 0x40

/**
 * The fixed id of a fixture tenant's webhook endpoint.
 *
 * @example
 * webhookEndpointId(fixtureIds('a')) // 'aaaaaaaa-0040-4000-8000-000000000001'
 */
export function webhookEndpointId(ids: FixtureIds): string {
  return fixtureId(ids.companies[0]!.startsWith('aaaaaaaa') ? 'a' : 'b', WEBHOOK_ENDPOINT_KIND, 1)
}

/**
 * The fixture tenant's endpoint as a store keeps it (B's description says `(B)`, like its records).
 *
 * @example
 * await store.replaceVersioned(webhookEndpoints, tenantId, fixtureWebhookEndpoint('a'), null)
 */
export function fixtureWebhookEndpoint(tenant: FixtureTenant): WebhookEndpointRecord {
  return {
    id: webhookEndpointId(fixtureIds(tenant)),
    url: `https://hooks.example.com/${tenant}`,
    events: ['ticket.created', 'budget.updated'],
    description: tenant === 'b' ? 'Fixture endpoint (B)' : 'Fixture endpoint',
    status: 'enabled',
    disabledReason: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    secrets: [{ secret: `whsec_${btoa(`fixture-secret-of-tenant-${tenant}`)}`, expiresAt: null }],
    eventScopes: ['tickets.read', 'budgets.write'],
    version: 1,
  }
}

/**
 * Adds the fixture endpoint to `tenantId` when `data` is a fixture tenant's seed (or its writable part).
 *
 * @example
 * await store.seed(tenantId, data); await addFixtureWebhooks(store, tenantId, data)
 */
export async function addFixtureWebhooks(store: Store, tenantId: string, data: SeedData): Promise<void> {
  const ids = new Set((data.companies ?? []).map((company) => (company as { id?: unknown }).id))
  const tenant = (['a', 'b'] as const).find((t) => ids.has(fixtureIds(t).companies[0]))
  if (tenant !== undefined)
    await store.replaceVersioned(webhookEndpoints, tenantId, fixtureWebhookEndpoint(tenant), null)
}

/** Every endpoint of a tenant fits one page: there are at most `webhookEndpoints.maxPerTenant`. */
const ALL_ENDPOINTS = listRequest(webhookEndpoints, { page: 1, limit: 100 })

/**
 * Every endpoint `tenantId` has in `store`, as stored (secrets included), newest first.
 *
 * @example
 * expect(await storedEndpoints(store, tenantId)).toEqual([])
 */
export async function storedEndpoints(store: Store, tenantId: string): Promise<WebhookEndpointRecord[]> {
  return (await store.list(webhookEndpoints, tenantId, ALL_ENDPOINTS)).items
}

/**
 * Company `n` as seed data (a company's events are what the webhook tests and bench deliver):
 * a fixed id from `n`, every optional field null.
 *
 * @example
 * await store.seed(tenantId, { companies: [numberedCompany(1)] })
 */
export function numberedCompany(n: number, name = `Company ${n}`) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name,
    domain: null,
    status: 'active',
    employeeCount: null,
    industry: null,
    website: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
  }
}
