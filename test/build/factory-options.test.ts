/**
 * Every factory of the public surface checks its options alike (src/model/options.ts,
 * docs/api-behaviour.md#options): a misspelt key and a value of the wrong kind are each a TypeError
 * at creation naming them. The table below lists the factories; a new exported `create*`,
 * `*RateLimiter` or `*Dispatcher` without a row fails here.
 */
import { describe, expect, it } from 'vitest'
import * as main from 'tenant-public-api'
import type { OptionChecks } from 'tenant-public-api'
import * as client from 'tenant-public-api/client'
import * as conformance from 'tenant-public-api/conformance'
import * as bun from 'tenant-public-api/bun'
import * as deno from 'tenant-public-api/deno'
import * as express from 'tenant-public-api/express'
import * as next from 'tenant-public-api/next'
import * as node from 'tenant-public-api/node'
import * as postgres from 'tenant-public-api/postgres'
import * as redis from 'tenant-public-api/redis'
import * as sqlite from 'tenant-public-api/sqlite'
import * as testing from 'tenant-public-api/testing'
import * as webhooks from 'tenant-public-api/webhooks'

const { createApiKeys, createMemoryStore, createOpenApiDocument, createPublicApi, memoryRateLimiter } = main

type Options = Record<string, unknown>

/** Bad options and the names their TypeError must hold. */
interface Refusal {
  options: Options
  names: readonly string[]
}

interface Factory {
  /** Calls the factory with its required arguments and `options` spread into its options object. */
  make: (options: Options) => unknown
  /** A misspelt key: the message names it and the option it was meant to be. */
  misspelt: Refusal
  /** A value of the wrong kind: the message names the option. */
  wrongType: Refusal
  /** Further refusals: nested options, several problems at once. */
  more?: readonly Refusal[]
}

const keyResolver = () => null
const api = createPublicApi({ store: createMemoryStore(), keyResolver })
const nodeRedis = { eval: async () => [1, 1000], isReady: true }
const connectionString = 'postgres://nobody@127.0.0.1:1/none'

/** Every factory of the public surface, by name. */
const FACTORIES: Record<string, Factory> = {
  createPublicApi: {
    make: (options) => createPublicApi({ store: createMemoryStore(), keyResolver, ...options }),
    misspelt: { options: { basepath: '/v1' }, names: ['"basepath"', 'did you mean basePath?'] },
    wrongType: { options: { maxBodyBytes: '1mb' }, names: ['maxBodyBytes must be a positive integer'] },
    more: [
      { options: { docs: 'no', publicOrigin: 5 }, names: ['docs must be a boolean', 'publicOrigin must be'] },
      { options: { keyResolver: undefined }, names: ['keyResolver is required'] },
      {
        options: { webhooks: { allowInsecureUrl: true } },
        names: ['webhooks has no option "allowInsecureUrl" (did you mean allowInsecureUrls?)'],
      },
      { options: { webhooks: { allowInsecureUrls: 1 } }, names: ['webhooks.allowInsecureUrls must be a boolean'] },
      { options: { tenantRateLimit: { limit: 0, windowMs: 1000 } }, names: ['tenantRateLimit must be'] },
      { options: { tenantRateLimit: { limit: 5 } }, names: ['tenantRateLimit must be'] },
      {
        options: { mcp: { maxAnswerByte: 1 } },
        names: ['mcp has no option "maxAnswerByte" (did you mean maxAnswerBytes?)'],
      },
      { options: { mcp: { maxAnswerBytes: 1 } }, names: ['mcp.maxAnswerBytes must be'] },
    ],
  },
  createOpenApiDocument: {
    make: (options) => createOpenApiDocument(options),
    misspelt: { options: { basepath: '/v1' }, names: ['"basepath"', 'did you mean basePath?'] },
    wrongType: { options: { basePath: 1 }, names: ['basePath must be a string'] },
  },
  createMemoryStore: {
    make: (options) => createMemoryStore(options),
    misspelt: { options: { eventRetention: 1000 }, names: ['"eventRetention"', 'did you mean eventRetentionMs?'] },
    wrongType: { options: { seed: [] }, names: ['seed must be an object'] },
  },
  createSqliteStore: {
    make: (options) => sqlite.createSqliteStore({ filename: ':memory:' }, options),
    misspelt: { options: { migrat: false }, names: ['"migrat"', 'did you mean migrate?'] },
    wrongType: { options: { migrate: 'yes' }, names: ['migrate must be a boolean'] },
    more: [{ options: { filename: 'x.db' }, names: ['"filename"'] }],
  },
  createPostgresStore: {
    make: (options) => postgres.createPostgresStore({ connectionString }, options),
    misspelt: {
      options: { onConnectionEror: () => undefined },
      names: ['"onConnectionEror"', 'did you mean onConnectionError?'],
    },
    wrongType: { options: { eventRetentionMs: '30d' }, names: ['eventRetentionMs must be a positive integer'] },
  },
  memoryRateLimiter: {
    make: (options) => memoryRateLimiter(options),
    misspelt: { options: { windowMS: 1000 }, names: ['"windowMS"', 'did you mean windowMs?'] },
    wrongType: { options: { limit: '10' }, names: ['limit must be a positive integer'] },
  },
  sqlRateLimiter: {
    make: (options) => sqlite.sqlRateLimiter(createMemoryStore(), options),
    misspelt: { options: { limt: 5 }, names: ['"limt"', 'did you mean limit?'] },
    wrongType: { options: { windowMs: 1.5 }, names: ['windowMs must be a positive integer'] },
  },
  redisRateLimiter: {
    make: (options) => redis.redisRateLimiter({ client: nodeRedis, ...options }),
    misspelt: { options: { prefx: 'rl' }, names: ['"prefx"', 'did you mean prefix?'] },
    wrongType: { options: { onUnavailable: 'maybe' }, names: ['onUnavailable must be "fail" or "allow"'] },
    more: [{ options: { client: undefined }, names: ['client is required'] }],
  },
  createApiKeys: {
    make: (options) => createApiKeys(createMemoryStore(), options),
    misspelt: { options: { cacheTtl: 0 }, names: ['"cacheTtl"', 'did you mean cacheTtlMs?'] },
    wrongType: { options: { prefix: 'tpa_' }, names: ['prefix must be'] },
  },
  createWebhookDispatcher: {
    make: (options) => webhooks.createWebhookDispatcher({ store: createMemoryStore(), ...options }),
    misspelt: { options: { retrySchedule: [1000] }, names: ['"retrySchedule"', 'did you mean retryScheduleMs?'] },
    wrongType: { options: { concurrency: 1.5 }, names: ['concurrency must be a positive integer'] },
    more: [{ options: { resolver: 'dns', now: 5 }, names: ['resolver must be a function', 'now must be a function'] }],
  },
  createDemoData: {
    make: (options) => testing.createDemoData(options),
    misspelt: { options: { ticket: 5 }, names: ['"ticket"', 'did you mean tickets?'] },
    wrongType: { options: { seed: 'abc' }, names: ['seed must be an integer >= 0'] },
  },
  createHarness: {
    make: (options) => testing.createHarness(api, options),
    misspelt: { options: { orign: 'http://x' }, names: ['"orign"', 'did you mean origin?'] },
    wrongType: { options: { onResponse: true }, names: ['onResponse must be a function'] },
  },
  createClient: {
    make: (options) => client.createClient({ baseUrl: 'https://portal.example', apiKey: 'k', ...options }),
    misspelt: { options: { maxRetryDelay: 10 }, names: ['"maxRetryDelay"', 'did you mean maxRetryDelayMs?'] },
    wrongType: { options: { headers: { 'user-agent': 1 } }, names: ['headers must be'] },
    more: [{ options: { apiKey: undefined }, names: ['apiKey is required'] }],
  },
  createTestApi: {
    make: (options) => testing.createTestApi({ data: {}, ...options }),
    misspelt: { options: { scope: ['tickets.read'] }, names: ['"scope"', 'did you mean scopes?'] },
    wrongType: { options: { scopes: ['tickets.reed'] }, names: ['scopes must be an array of scopes'] },
    more: [
      {
        options: { apiOptions: { maxBodyByte: 5 } },
        names: ['apiOptions has no option "maxBodyByte" (did you mean maxBodyBytes?)'],
      },
      { options: { apiOptions: { basePath: '/v2' } }, names: ['apiOptions has no option "basePath"'] },
    ],
  },
}

/** The mounts that take options of their own (`serveWithBun` and `serveWithDeno` hand theirs to the runtime). */
const MOUNTS: Record<string, Factory> = {
  toNodeHandler: {
    make: (options) => node.toNodeHandler(api, options),
    misspelt: { options: { trustPoxy: true }, names: ['"trustPoxy"', 'did you mean trustProxy?'] },
    wrongType: { options: { trustProxy: 'yes' }, names: ['trustProxy must be a boolean'] },
  },
  toExpressMiddleware: {
    make: (options) => express.toExpressMiddleware(api, options),
    misspelt: { options: { basepath: '/v1' }, names: ['"basepath"', 'did you mean basePath?'] },
    wrongType: { options: { onError: 'log' }, names: ['onError must be a function'] },
    more: [{ options: { trustProxy: true }, names: ['toExpressMiddleware has no option "trustProxy"'] }],
  },
}

/**
 * Exported functions that match the pattern but make no object of options of their own:
 * `createNodeRequest` is the Node mounts' per-request bridge (docs/mounts.md).
 */
const NOT_FACTORIES = new Set(['createNodeRequest'])

/** The TypeError `make(options)` throws or rejects with. */
async function refusal(make: Factory['make'], options: Options): Promise<string> {
  let error: unknown
  try {
    await make(options)
  } catch (caught) {
    error = caught
  }
  expect(error, `accepted ${JSON.stringify(options)}`).toBeInstanceOf(TypeError)
  return (error as TypeError).message
}

describe('every factory refuses unknown keys and wrong types at creation', () => {
  it('the table covers every create*, *RateLimiter and *Dispatcher of every entry', () => {
    const entries = [
      main,
      client,
      conformance,
      bun,
      deno,
      express,
      next,
      node,
      postgres,
      redis,
      sqlite,
      testing,
      webhooks,
    ]
    const factories = entries
      .flatMap((entry) => Object.entries(entry))
      .filter(([name, value]) => typeof value === 'function' && /^create|RateLimiter$|Dispatcher$/.test(name))
      .map(([name]) => name)
      .filter((name) => !NOT_FACTORIES.has(name))
    expect(new Set(factories)).toEqual(new Set(Object.keys(FACTORIES)))
    // The main entry's names are those of test/build/public-surface.json (test/build/public-surface.test.ts).
    expect(Object.keys(FACTORIES)).toContain('createPublicApi')
  })

  describe.each(Object.entries({ ...FACTORIES, ...MOUNTS }))('%s', (_name, factory) => {
    it('a misspelt key is a TypeError naming it and the option it probably meant', async () => {
      const message = await refusal(factory.make, factory.misspelt.options)
      for (const name of factory.misspelt.names) expect(message).toContain(name)
    })

    it('a value of the wrong kind is a TypeError naming the option', async () => {
      const message = await refusal(factory.make, factory.wrongType.options)
      for (const name of factory.wrongType.names) expect(message).toContain(name)
    })

    it('both at once: one TypeError naming each, and the options it takes', async () => {
      const message = await refusal(factory.make, { ...factory.misspelt.options, ...factory.wrongType.options })
      for (const name of [...factory.misspelt.names, ...factory.wrongType.names]) expect(message).toContain(name)
      expect(message).toMatch(/\. The options of \w+: /)
    })

    if (factory.more !== undefined)
      it.each(factory.more)('further refusals: %j', async ({ options, names }) => {
        const message = await refusal(factory.make, options)
        for (const name of names) expect(message).toContain(name)
      })
  })
})

describe('checkOptions, for a mount or factory of your own (docs/api-behaviour.md#options)', () => {
  interface MountOptions {
    basePath?: string
  }
  const CHECKS: OptionChecks<MountOptions> = {
    basePath: (value) => (typeof value === 'string' ? undefined : 'must be a string'),
  }
  const myMount = (options: unknown = {}) => {
    main.checkOptions(options, CHECKS, { name: 'myMount' })
    return options.basePath ?? '/api/public/v1'
  }

  it('takes the options it checks, and undefined for one not given', () => {
    expect(myMount()).toBe('/api/public/v1')
    expect(myMount({ basePath: '/v1' })).toBe('/v1')
    expect(myMount({ basePath: undefined })).toBe('/api/public/v1')
  })

  it('refuses anything else in one TypeError', () => {
    expect(() => myMount({ basepath: '/v1', other: 1 })).toThrow(
      new TypeError(
        'myMount has no option "basepath" (did you mean basePath?); myMount has no option "other". ' +
          'The options of myMount: basePath',
      ),
    )
    expect(() => myMount({ basePath: 1 })).toThrow(
      new TypeError('basePath must be a string. The options of myMount: basePath'),
    )
    expect(() => myMount(null)).toThrow(new TypeError('myMount needs an object of options (basePath), not null'))
  })
})
