/**
 * The Redis rate limiter over the installed ioredis and node-redis (redis) clients, against the run's
 * Redis: an exact shared limit under concurrency, the API's 429 from it, and a client still connecting.
 */
import { randomUUID } from 'node:crypto'
import * as ioredis from 'ioredis'
import { createClient } from 'redis'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { redisRateLimiter, type RedisRateLimiterOptions } from 'tenant-public-api/redis'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { BASE, ORIGIN, required } from './env.js'

const REDIS_URL = required('REDIS_URL')
// `Redis` is a named export from ioredis 5.2.5 on; before, the default export only.
const Redis = (ioredis.Redis ?? ioredis.default) as typeof ioredis.Redis
type Client = RedisRateLimiterOptions['client']

interface Kind {
  name: string
  /** A client, connected when `connected`, else still connecting; and how to close it. */
  open(connected: boolean): Promise<{ client: Client; ready(): boolean; close(): Promise<void> }>
}

const kinds: Kind[] = [
  {
    name: 'ioredis',
    async open(connected) {
      const client = new Redis(REDIS_URL, { maxRetriesPerRequest: null, retryStrategy: () => 50 })
      client.on('error', () => {})
      if (connected) await new Promise<void>((resolve, reject) => client.once('ready', resolve).once('error', reject))
      return { client, ready: () => client.status === 'ready', close: async () => void client.disconnect() }
    },
  },
  {
    name: 'node-redis',
    async open(connected) {
      const client = createClient({ url: REDIS_URL, socket: { reconnectStrategy: () => 50 } })
      client.on('error', () => {})
      const connecting = client.connect().catch(() => undefined)
      if (connected) await connecting
      return {
        client,
        ready: () => client.isReady,
        close: async () => {
          client.destroy()
          await connecting
        },
      }
    },
  },
]

const TOKEN = testKey('tenant-a', ['tickets.read'])
const apiWith = (client: Client, options: Omit<RedisRateLimiterOptions, 'client'>) => {
  const api = createPublicApi({
    store: createMemoryStore(),
    keyResolver: testKeyResolver(),
    rateLimiter: redisRateLimiter({ client, ...options }),
  })
  return () => api(new Request(`${ORIGIN}${BASE}/tickets`, { headers: { authorization: `Bearer ${TOKEN}` } }))
}

describe.each(kinds)('redisRateLimiter with $name', (kind) => {
  it('allows exactly limit of 200 concurrent requests, counting remaining down', async () => {
    const { client, close } = await kind.open(true)
    try {
      const limiter = redisRateLimiter({ client, limit: 50, windowMs: 30_000, timeoutMs: 10_000 })
      const id = `peer-matrix-${randomUUID()}`
      const results = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(id)))
      expect(results.filter((result) => result.allowed)).toHaveLength(50)
      const remaining = results.map((result) => result.remaining).sort((a, b) => a - b)
      expect(remaining.slice(150)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    } finally {
      await close()
    }
  })

  it('two APIs on one Redis share the limit: the third request is a 429 with Retry-After', async () => {
    const { client, close } = await kind.open(true)
    try {
      const options = { limit: 2, windowMs: 60_000, prefix: `peer-matrix-${randomUUID()}` }
      const [first, second] = [apiWith(client, options), apiWith(client, options)]
      expect((await first()).status).toBe(200)
      expect((await second()).status).toBe(200)
      const refused = await first()
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED')
    } finally {
      await close()
    }
  })

  it('used at once while its client connects: requests wait for the connection and are answered 200', async () => {
    const { client, ready, close } = await kind.open(false)
    try {
      const call = apiWith(client, { prefix: `peer-matrix-${randomUUID()}` })
      expect(ready(), 'the client is still connecting').toBe(false)
      const answers = await Promise.all(Array.from({ length: 5 }, () => call()))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    } finally {
      await close()
    }
  })
})
