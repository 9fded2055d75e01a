/**
 * `tenant-public-api/testing`: what a host's tests need to drive the API without a database,
 * a key table or a port. Safe to import anywhere: nothing here depends on a test runner (the store
 * conformance suite, which uses vitest, is `tenant-public-api/conformance`).
 *
 * @example
 * import { testKey, testKeyResolver, createHarness } from 'tenant-public-api/testing'
 */
export {
  createHarness,
  type CallOptions,
  type CallResult,
  type Harness,
  type HarnessOptions,
  type Reply,
  type ValidationErrorReply,
} from './harness.js'
export { testKey, testKeyResolver } from './keys.js'
export { createTestApi, TEST_ORIGIN, type TestApi, type TestApiOptions, type TestKeys } from './test-api.js'
export {
  createDemoData,
  DEFAULT_DEMO_SEED,
  DEMO_API_KEY,
  DEMO_NOW,
  DEMO_TENANT_ID,
  demoAdmin,
  demoKeyResolver,
  lazyArray,
  type DemoData,
  type DemoDataOptions,
} from '../demo/index.js'
