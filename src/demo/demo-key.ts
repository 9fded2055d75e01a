/** The demo tenant's id and API key, and the key resolver that knows it. */
import { SCOPES, type KeyResolver, type Principal } from '../http/auth.js'
import { DEFAULT_DEMO_SEED, demoAdmin } from './demo-data.js'

/**
 * The tenant id the demo data is seeded under.
 *
 * @example
 * await store.seed(DEMO_TENANT_ID, createDemoData())
 */
export const DEMO_TENANT_ID = 'tenant_harborline_demo'

/**
 * The demo API key: every scope, on {@link DEMO_TENANT_ID}. Public on purpose; never use it outside demos.
 *
 * @example
 * fetch(url, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } })
 */
export const DEMO_API_KEY = 'tpa_demo_7Hc2QxV9mK4pLw8RzN3tYb6D'

/**
 * Resolves {@link DEMO_API_KEY} to a principal of {@link DEMO_TENANT_ID} with every scope in
 * `SCOPES`, acting as the demo tenant's primary admin; any other token is unknown (401).
 *
 * @example
 * const api = createPublicApi({ store, keyResolver: demoKeyResolver() })
 */
export function demoKeyResolver(options: { seed?: number } = {}): KeyResolver {
  const principal: Principal = {
    tenantId: DEMO_TENANT_ID,
    keyId: 'demo-key',
    scopes: [...SCOPES],
    actor: demoAdmin(options.seed ?? DEFAULT_DEMO_SEED),
  }
  return (token) => (token === DEMO_API_KEY ? principal : null)
}
