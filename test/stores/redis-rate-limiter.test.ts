import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, createPublicApi, StoreUnavailableError, type RateLimiter } from 'tenant-public-api'
import { redisRateLimiter, type RedisRateLimiterOptions } from 'tenant-public-api/redis'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { redisTarget, startTestRedis, type TestRedis } from '../support/redis.js'
import { TcpProxy } from './support.js'

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.stop()
})

type Client = RedisRateLimiterOptions['client']
/** Where a client connects: a URL, and the TLS server name when it goes through a proxy. */
interface Target {
  url: string
  tls: { servername: string } | undefined
}
/** The test Redis itself: its whole URL (database, password, TLS). */
const direct = (): Target => ({ url: redis.url, tls: undefined })
/** The test Redis through `proxy`: the same URL but for the proxy's address. */
const through = (proxy: TcpProxy): Target => ({ url: redis.via(proxy.port), tls: redis.tlsVia })

interface ClientKind {
  name: 'ioredis' | 'node-redis'
  open(target: Target): Promise<{ client: Client; close(): Promise<void> }>
  /** A client still connecting, as `new Redis(url)` is when used at once. */
  connecting(target: Target): { client: Client; ready(): boolean; close(): Promise<void> }
}

/** An ioredis client of `target` that retries forever: a cut connection must come back by itself. */
const ioredisOf = ({ url, tls }: Target) => {
  const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 50, ...(tls ? { tls } : {}) })
  client.on('error', () => {})
  return client
}
const nodeRedisOf = ({ url, tls }: Target) => {
  const socket = { reconnectStrategy: () => 50, ...(tls ? { tls: true as const, servername: tls.servername } : {}) }
  const client = createClient({ url, socket })
  client.on('error', () => {})
  return client
}

const kinds: ClientKind[] = [
  {
    name: 'ioredis',
    async open(target) {
      const client = ioredisOf(target)
      await new Promise<void>((resolve, reject) => client.once('ready', resolve).once('error', reject))
      return { client, close: async () => void client.disconnect() }
    },
    connecting(target) {
      const client = ioredisOf(target)
      return { client, ready: () => client.status === 'ready', close: async () => void client.disconnect() }
    },
  },
  {
    name: 'node-redis',
    async open(target) {
      const client = nodeRedisOf(target)
      await client.connect()
      return { client, close: async () => void client.destroy() }
    },
    connecting(target) {
      const client = nodeRedisOf(target)
      const connected = client.connect().catch(() => undefined)
      return {
        client,
        ready: () => client.isReady,
        close: async () => {
          client.destroy()
          await connected
        },
      }
    },
  },
]

/** A loopback port nothing listens on (until something is started on it). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const key = () => `test-${randomUUID()}`

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function apiWith(rateLimiter: RateLimiter, errors: unknown[] = []) {
  const api = createPublicApi({
    store: createMemoryStore(),
    keyResolver: testKeyResolver(),
    rateLimiter,
    onError: (error) => errors.push(error),
  })
  const token = testKey('tenant-a', ['tickets.read'])
  return () =>
    api(new Request('http://api.test/api/public/v1/tickets', { headers: { authorization: `Bearer ${token}` } }))
}

describe.each(kinds)('redisRateLimiter with $name', (kind) => {
  it('allows exactly limit of 200 concurrent requests, counting remaining down, timed by Redis', async () => {
    const { client, close } = await kind.open(direct())
    try {
      // A generous timeout: this is about exactness, and the stand-in runs Lua slowly (fengari).
      const limiter = redisRateLimiter({ client, limit: 50, windowMs: 30_000, timeoutMs: 10_000 })
      const id = key()
      const results = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(id)))
      expect(results.filter((r) => r.allowed)).toHaveLength(50)
      expect(
        results
          .map((r) => r.remaining)
          .sort((a, b) => a - b)
          .slice(150),
      ).toEqual(Array.from({ length: 50 }, (_, i) => i))
      for (const result of results) {
        expect(result.limit).toBe(50)
        expect(result.windowMs).toBe(30_000)
        expect(result.resetAt.getTime() - Date.now()).toBeGreaterThan(25_000)
        expect(result.resetAt.getTime() - Date.now()).toBeLessThanOrEqual(30_000)
      }
      // Another key, and another rule for the same key, have their own windows.
      expect(await limiter.consume(key())).toMatchObject({ allowed: true, remaining: 49 })
      expect(await limiter.consume(id, { limit: 3, windowMs: 2000 })).toMatchObject({ allowed: true, remaining: 2 })
    } finally {
      await close()
    }
  })

  it('counts a cost at once, at most the limit among concurrent costs; a refused cost spends nothing', async () => {
    const { client, close } = await kind.open(direct())
    try {
      const limiter = redisRateLimiter({ client, limit: 10, windowMs: 30_000, timeoutMs: 10_000 })
      expect(limiter.countsCost).toBe(true)
      const id = key()
      expect(await limiter.consume(id, undefined, 4)).toMatchObject({ allowed: true, remaining: 6, limit: 10 })
      // A cost and single requests share the window.
      expect(await limiter.consume(id)).toMatchObject({ allowed: true, remaining: 5 })
      expect(await limiter.consume(id, undefined, 6)).toMatchObject({ allowed: false, remaining: 5 })
      expect(await limiter.consume(id, undefined, 11)).toMatchObject({ allowed: false, remaining: 5 })
      const refused = await limiter.consume(id, undefined, 6)
      expect(refused.resetAt.getTime() - Date.now()).toBeGreaterThan(25_000)
      expect(await limiter.consume(id, undefined, 5)).toMatchObject({ allowed: true, remaining: 0 })
      const other = key()
      const results = await Promise.all(Array.from({ length: 12 }, () => limiter.consume(other, undefined, 3)))
      expect(results.filter((r) => r.allowed)).toHaveLength(3)
    } finally {
      await close()
    }
  })

  it('a new window starts once the old one expires in Redis', async () => {
    const { client, close } = await kind.open(direct())
    try {
      const limiter = redisRateLimiter({ client, limit: 1, windowMs: 1000 })
      const id = key()
      expect((await limiter.consume(id)).allowed).toBe(true)
      const refused = await limiter.consume(id)
      expect(refused.allowed).toBe(false)
      await new Promise((resolve) => setTimeout(resolve, refused.resetAt.getTime() - Date.now() + 50))
      expect((await limiter.consume(id)).allowed).toBe(true)
    } finally {
      await close()
    }
  })

  it('used at once while its client connects: requests wait for the connection and are answered 200', async () => {
    const { client, ready, close } = kind.connecting(direct())
    try {
      const errors: unknown[] = []
      const call = apiWith(redisRateLimiter({ client, prefix: `t-${randomUUID()}` }), errors)
      expect(ready(), 'the client is still connecting').toBe(false)
      const answers = await Promise.all(Array.from({ length: 5 }, () => call()))
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      expect(answers.map((r) => r.headers.get('x-ratelimit-remaining')).sort()).toEqual([
        '115',
        '116',
        '117',
        '118',
        '119',
      ])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it('a client that cannot connect: 503 after connectTimeoutMs, then at once; 200 once it connects', async () => {
    const proxy = new TcpProxy({ host: redis.host, port: redis.port })
    proxy.port = await freePort()
    const { client, close } = kind.connecting(through(proxy))
    try {
      const call = apiWith(redisRateLimiter({ client, connectTimeoutMs: 300, prefix: `t-${randomUUID()}` }))
      const started = performance.now()
      const first = await Promise.all([call(), call()])
      expect(first.map((r) => r.status)).toEqual([503, 503])
      expect(performance.now() - started, 'the first requests waited for the connection').toBeGreaterThanOrEqual(290)
      const again = performance.now()
      expect((await call()).status).toBe(503)
      expect(performance.now() - again, 'a later request does not wait again').toBeLessThan(290)
      await proxy.start()
      await until(async () => (await call()).status === 200)
    } finally {
      await close()
      await proxy.stop()
    }
  })

  it('two OS processes share one exact limit', async () => {
    const id = key()
    const run = () =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'test/stores/redis-worker.ts', redis.url, kind.name, id, '150', '200'],
        { timeout: 60_000 },
      ).then(({ stdout }) => (JSON.parse(stdout.trim().split('\n').at(-1)!) as { allowed: number }).allowed)
    const [a, b] = await Promise.all([run(), run()])
    // 400 requests from two processes against one limit of 150: exactly 150 allowed in all.
    expect(a + b).toBe(150)
  })

  it('Redis unreachable mid-run: 503 SERVICE_UNAVAILABLE, then 200 again once it is back', async () => {
    const proxy = new TcpProxy({ host: redis.host, port: redis.port })
    await proxy.start()
    const { client, close } = await kind.open(through(proxy))
    try {
      const call = apiWith(redisRateLimiter({ client, limit: 100, windowMs: 60_000, prefix: `t-${randomUUID()}` }))
      const before = await call()
      expect(before.status).toBe(200)
      expect(before.headers.get('ratelimit')).toMatch(/^"key";r=99;t=/)
      await proxy.stop()
      await until(async () => (await call()).status === 503)
      const down = await call()
      expect(down.status).toBe(503)
      expect(((await down.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE')
      expect(down.headers.get('retry-after')).toBe('1')
      await proxy.start()
      await until(async () => (await call()).status === 200)
      // The count goes on in Redis. A command in flight at the cut may be resent by the client once it
      // reconnects, so a request answered 503 can still have been counted (never more than the few cut).
      const after = await call()
      expect(after.status).toBe(200)
      const remaining = Number(after.headers.get('x-ratelimit-remaining'))
      expect(remaining).toBeLessThanOrEqual(97)
      expect(remaining).toBeGreaterThanOrEqual(90)
    } finally {
      await close()
      await proxy.stop()
    }
  })

  it('onUnavailable "allow": counts in memory while Redis is unreachable, and in Redis again after', async () => {
    const proxy = new TcpProxy({ host: redis.host, port: redis.port })
    await proxy.start()
    const { client, close } = await kind.open(through(proxy))
    const prefix = `t-${randomUUID()}`
    try {
      const limiter = redisRateLimiter({ client, limit: 3, windowMs: 60_000, onUnavailable: 'allow', prefix })
      const id = key()
      expect(await limiter.consume(id)).toMatchObject({ allowed: true, remaining: 2 })
      await proxy.stop()
      // Requests keep being answered, counted by the in-process fallback from zero: 3 allowed, then refused.
      const fallback = []
      for (let i = 0; i < 4; i++) fallback.push((await limiter.consume(id)).allowed)
      expect(fallback).toEqual([true, true, true, false])
      await proxy.start()
      // Back on Redis, whose window had counted one before the cut.
      const io = kind.name === 'ioredis' ? new Redis(redis.url) : undefined
      const node = io === undefined ? await createClient({ url: redis.url }).connect() : undefined
      try {
        const redisKey = `${prefix}:3/60:${id}`
        // The fallback's window is spent, so an allowed request is one Redis counted.
        await until(async () => (await limiter.consume(id)).allowed)
        const counted = Number(io ? await io.get(redisKey) : await node!.get(redisKey))
        expect(counted).toBeGreaterThanOrEqual(2)
      } finally {
        io?.disconnect()
        await node?.quit()
      }
    } finally {
      await close()
      await proxy.stop()
    }
  })

  it('a cost, Redis unreachable: StoreUnavailableError, or the fallback, which gives a refused cost back', async () => {
    const proxy = new TcpProxy({ host: redis.host, port: redis.port })
    await proxy.start()
    const { client, close } = await kind.open(through(proxy))
    try {
      const prefix = `t-${randomUUID()}`
      const failing = redisRateLimiter({ client, limit: 5, prefix })
      const allowing = redisRateLimiter({ client, limit: 5, onUnavailable: 'allow', prefix })
      await proxy.stop()
      await until(async () =>
        kind.name === 'ioredis' ? (client as Redis).status !== 'ready' : !(client as { isReady: boolean }).isReady,
      )
      await expect(failing.consume('k', undefined, 2)).rejects.toBeInstanceOf(StoreUnavailableError)
      expect(await allowing.consume('k', undefined, 3)).toMatchObject({ allowed: true, remaining: 2 })
      expect(await allowing.consume('k', undefined, 3)).toMatchObject({ allowed: false, remaining: 2 })
      expect(await allowing.consume('k', undefined, 2)).toMatchObject({ allowed: true, remaining: 0 })
    } finally {
      await close()
      await proxy.stop()
    }
  })

  it('a Redis that does not answer within timeoutMs: StoreUnavailableError, or the fallback with "allow"', async () => {
    const proxy = new TcpProxy({ host: redis.host, port: redis.port })
    await proxy.start()
    const { client, close } = await kind.open(through(proxy))
    try {
      const failing = redisRateLimiter({ client, timeoutMs: 200, prefix: `t-${randomUUID()}` })
      const allowing = redisRateLimiter({ client, timeoutMs: 200, onUnavailable: 'allow', prefix: `t-${randomUUID()}` })
      expect((await failing.consume('k')).allowed).toBe(true)
      proxy.silence()
      const started = Date.now()
      await expect(failing.consume('k')).rejects.toBeInstanceOf(StoreUnavailableError)
      expect(Date.now() - started).toBeLessThan(2000)
      expect(await allowing.consume('k')).toMatchObject({ allowed: true, remaining: 119 })
    } finally {
      await close()
      await proxy.stop()
    }
  })
})

describe('redisRateLimiter options', () => {
  it('refuses what is not an ioredis or node-redis client, and bad limits, with a TypeError', () => {
    expect(() => redisRateLimiter({ client: {} as never })).toThrow(TypeError)
    expect(() => redisRateLimiter(undefined as never)).toThrow(TypeError)
    const client = { isReady: true, eval: async () => [1, 1000] }
    expect(() => redisRateLimiter({ client, limit: 0 })).toThrow(TypeError)
    expect(() => redisRateLimiter({ client, windowMs: 1.5 })).toThrow(TypeError)
    expect(() => redisRateLimiter({ client, onUnavailable: 'maybe' as never })).toThrow(TypeError)
    expect(() => redisRateLimiter({ client, connectTimeoutMs: -1 })).toThrow(TypeError)
  })

  it('a request Redis cannot count is logged by the default onError in one line, without a stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const client = { isReady: false, eval: () => new Promise<unknown>(() => {}) }
      const api = createPublicApi({
        store: createMemoryStore(),
        keyResolver: testKeyResolver(),
        rateLimiter: redisRateLimiter({ client }),
      })
      const token = testKey('tenant-a', ['tickets.read'])
      const headers = { authorization: `Bearer ${token}` }
      for (let i = 0; i < 3; i++)
        expect((await api(new Request('http://api.test/api/public/v1/tickets', { headers }))).status).toBe(503)
      expect(logged.mock.calls).toHaveLength(3)
      for (const args of logged.mock.calls) {
        expect(args).toHaveLength(1)
        expect(String(args[0])).toMatch(
          /^\[tenant-public-api\] request \S+ answered 503: The data store is unavailable/,
        )
        expect(String(args[0])).not.toContain('\n')
      }
    } finally {
      logged.mockRestore()
    }
  })

  it('a node-redis client that is not ready fails at once with StoreUnavailableError', async () => {
    const client = { isReady: false, eval: () => new Promise<unknown>(() => {}) }
    await expect(Promise.resolve(redisRateLimiter({ client }).consume('k'))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    )
  })
})

describe('the tests’ Redis, from the whole REDIS_URL', () => {
  it('a URL with /3 uses database 3, says so, and the limiter counts there, directly and through a proxy', async () => {
    const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
    url.pathname = '/3'
    const logged = vi.spyOn(console, 'info').mockImplementation(() => {})
    let three: TestRedis
    try {
      three = await startTestRedis(url.toString())
      expect(logged.mock.calls.flat().join('\n')).toMatch(/^\[redis\] .*, database 3\b/)
    } finally {
      logged.mockRestore()
    }
    const zeroUrl = new URL(three.url)
    zeroUrl.pathname = '/0'
    const [inThree, inZero] = [new Redis(three.url), new Redis(zeroUrl.toString())]
    const proxy = new TcpProxy({ host: three.host, port: three.port })
    await proxy.start()
    try {
      expect(three.db).toBe(3)
      expect(new URL(three.via(proxy.port)).pathname).toBe('/3')
      for (const kind of kinds)
        for (const target of [
          { url: three.url, tls: undefined },
          { url: three.via(proxy.port), tls: three.tlsVia },
        ]) {
          const { client, close } = await kind.open(target)
          const prefix = `t-${randomUUID()}`
          try {
            await redisRateLimiter({ client, prefix, limit: 5, windowMs: 60_000 }).consume('k')
          } finally {
            await close()
          }
          const label = `${kind.name} at ${target.url}`
          expect(await inThree.get(`${prefix}:5/60:k`), `${label}: counted in database 3`).toBe('1')
          expect(await inZero.exists(`${prefix}:5/60:k`), `${label}: nothing in database 0`).toBe(0)
        }
    } finally {
      inThree.disconnect()
      inZero.disconnect()
      await proxy.stop()
      await three.stop()
    }
  })

  it('reads the database, the password and TLS from the URL, and keeps them for a proxy', () => {
    const plain = redisTarget('redis://127.0.0.1:6379')
    expect([plain.db, plain.tls, plain.tlsVia, plain.via(4000)]).toEqual([
      0,
      false,
      undefined,
      'redis://127.0.0.1:4000',
    ])
    const full = redisTarget('rediss://user:s3cret@cache.example:6380/7')
    expect([full.host, full.port, full.db, full.tls]).toEqual(['cache.example', 6380, 7, true])
    expect(full.via(4000)).toBe('rediss://user:s3cret@127.0.0.1:4000/7')
    expect(full.tlsVia).toEqual({ servername: 'cache.example' })
    expect(() => redisTarget('redis://127.0.0.1:6379/x')).toThrow(/not a database index/)
    expect(() => redisTarget('http://127.0.0.1:6379')).toThrow(/is not redis/)
  })
})
