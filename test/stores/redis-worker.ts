/**
 * One OS process of the Redis rate limiter's multi-process test: consumes `count` requests of
 * `key` under `limit` per minute, 16 at a time, and prints how many were allowed as JSON.
 * argv: redisUrl clientKind(ioredis|node-redis) key limit count
 */
import { Redis } from 'ioredis'
import { createClient } from 'redis'
import { redisRateLimiter } from 'tenant-public-api/redis'

const [url = '', kind = 'ioredis', key = '', limit = '1', count = '1'] = process.argv.slice(2)
const node = kind === 'node-redis' ? await createClient({ url }).connect() : undefined
const io = kind === 'ioredis' ? new Redis(url) : undefined
if (io !== undefined) await new Promise((resolve) => io.once('ready', resolve))
const limiter = redisRateLimiter({ client: (node ?? io)!, limit: Number(limit), windowMs: 60_000 })
let allowed = 0
let next = 0
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next++ < Number(count)) if ((await limiter.consume(key)).allowed) allowed++
  }),
)
console.log(JSON.stringify({ allowed }))
await node?.quit()
io?.disconnect()
