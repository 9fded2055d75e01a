/**
 * A fixed-window rate limiter in Redis, so that every process on one Redis shares one exact limit.
 * Built on rate-limiter-flexible's RateLimiterRedis (docs/stores.md#redis-rate-limits): one
 * round trip per request (its Lua script sets the window with `SET NX EX`, then `INCRBY` and
 * `PTTL`), so the count is atomic and the window is timed by the Redis server's clock.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimiter, RateLimitResult, RateLimitRule } from '../../ports/rate-limiter.js'
import { StoreUnavailableError } from '../../ports/store.js'

/**
 * The part of an ioredis client (`new Redis(url)`, ioredis 5) the limiter uses: it defines its
 * Lua script as a command and reads `status` to wait while it first connects and to refuse at once
 * while disconnected after that.
 */
export interface IoRedisLikeClient {
  status: string
  defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): unknown
}

/**
 * The part of a node-redis client (`createClient({ url })`, redis 4 and 5, connected or connecting)
 * the limiter uses: `EVAL` with keys and arguments, `isReady` to refuse at once while disconnected,
 * and `isOpen` (a socket open or opening) to wait while it first connects.
 */
export interface NodeRedisLikeClient {
  isReady: boolean
  isOpen?: boolean
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}

/** Options of {@link redisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** An ioredis or node-redis client; the limiter never connects or closes it. */
  client: IoRedisLikeClient | NodeRedisLikeClient
  /** Requests per window. Default 120. */
  limit?: number
  /** Window length, rounded up to whole seconds (Redis expiries here are in seconds). Default 60,000 ms. */
  windowMs?: number
  /** Prefix of the Redis keys, `{prefix}:{limit}/{seconds}:{key}`. Default `tpa:rl`. */
  prefix?: string
  /**
   * When Redis cannot be reached: `"fail"` (default) throws `StoreUnavailableError`, so the request
   * is a 503 `SERVICE_UNAVAILABLE`; `"allow"` counts in this process's memory instead, per process,
   * until Redis answers again.
   */
  onUnavailable?: 'fail' | 'allow'
  /**
   * How long to wait for Redis's answer (timed out after timeoutMs to 1.5 x timeoutMs); then Redis
   * counts as unreachable for that request (a command on a connection cut mid-flight is otherwise
   * held by the client until it reconnects). Default 500 ms.
   */
  timeoutMs?: number
  /**
   * How long requests wait for a client that is still connecting when the limiter first needs it
   * (`new Redis(url)` used at once, a node-redis `connect()` not yet done); they then go on, or fail
   * as for a disconnected client. After the client has been ready, or this wait ran out, a
   * disconnected client fails at once. Default 5,000 ms.
   */
  connectTimeoutMs?: number
}

/** ioredis's states while it opens a connection (before its first `ready`, `reconnecting` is a retry of that). */
const IOREDIS_CONNECTING = new Set(['connecting', 'connect', 'reconnecting'])
/** How often a first connection's readiness is looked at while requests wait for it. */
const READY_POLL_MS = 10

/**
 * A rate limiter on Redis, shared exactly by every process using the same Redis and prefix.
 *
 * @example
 * import { Redis } from 'ioredis'
 * import { redisRateLimiter } from 'tenant-public-api/redis'
 * const rateLimiter = redisRateLimiter({ client: new Redis(process.env.REDIS_URL!), limit: 600 })
 * const api = createPublicApi({ store, keyResolver, rateLimiter })
 */
export function redisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const client = options.client as IoRedisLikeClient & NodeRedisLikeClient
  if (typeof client !== 'object' || client === null)
    throw new TypeError('redisRateLimiter needs { client }: an ioredis or node-redis client')
  const ioredis = typeof client.defineCommand === 'function'
  if (!ioredis && typeof client.eval !== 'function')
    throw new TypeError('client must be an ioredis client (defineCommand) or a node-redis client (eval)')
  const defaults: RateLimitRule = { limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000 }
  for (const [name, value] of Object.entries(defaults))
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`)
  const prefix = options.prefix ?? 'tpa:rl'
  const onUnavailable = options.onUnavailable ?? 'fail'
  if (onUnavailable !== 'fail' && onUnavailable !== 'allow')
    throw new TypeError('onUnavailable must be "fail" or "allow"')

  const timeoutMs = options.timeoutMs ?? 500
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new TypeError('timeoutMs must be a positive integer')
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000
  if (!Number.isSafeInteger(connectTimeoutMs) || connectTimeoutMs < 0)
    throw new TypeError('connectTimeoutMs must be a non-negative integer')

  const isReady = () => (ioredis ? client.status === 'ready' : client.isReady === true)
  const isConnecting = () => (ioredis ? IOREDIS_CONNECTING.has(client.status) : client.isOpen === true)
  // A client made just before the limiter is still connecting: the first requests wait for it (once,
  // bounded) rather than each answering 503. Later, a disconnected client fails at once, as documented.
  let firstConnection: 'pending' | 'over' = isReady() ? 'over' : 'pending'
  let waiting: Promise<void> | undefined
  /** A promise to wait on while the client first connects, or undefined to go on now. */
  const whenConnected = (): Promise<void> | undefined => {
    if (firstConnection === 'over') return undefined
    if (isReady()) {
      firstConnection = 'over'
      return undefined
    }
    if (waiting === undefined && !isConnecting()) return undefined
    waiting ??= new Promise<void>((resolve) => {
      const deadline = Date.now() + connectTimeoutMs
      const look = () => {
        if (isReady() || Date.now() >= deadline || !isConnecting()) {
          firstConnection = 'over'
          resolve()
        } else (setTimeout(look, READY_POLL_MS) as { unref?: () => void }).unref?.()
      }
      look()
    })
    return waiting
  }

  /** A rule's Redis limiter and, with onUnavailable "allow", its in-process fallback. */
  interface RuleLimiters {
    redis: RateLimiterRedis
    fallback: RateLimiterMemory | undefined
  }
  // One pair per rule (a principal's own rateLimit has its own window), made on first use.
  const limiters = new Map<string, RuleLimiters>()
  const limitersFor = (rule: RateLimitRule): RuleLimiters => {
    const seconds = Math.max(1, Math.ceil(rule.windowMs / 1000))
    const id = `${rule.limit}/${seconds}`
    let found = limiters.get(id)
    if (found === undefined) {
      const keyPrefix = `${prefix}:${id}`
      const fallback =
        onUnavailable === 'allow'
          ? new RateLimiterMemory({ points: rule.limit, duration: seconds, keyPrefix })
          : undefined
      const redis = new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: !ioredis,
        points: rule.limit,
        duration: seconds,
        keyPrefix,
        // Fail at once while disconnected, rather than queueing behind a reconnect.
        rejectIfRedisNotReady: true,
        // rate-limiter-flexible's insurance: on a Redis error the fallback counts instead.
        ...(fallback === undefined ? {} : { insuranceLimiter: fallback }),
      })
      found = { redis, fallback }
      limiters.set(id, found)
    }
    return found
  }

  const resultOf = (res: RateLimiterRes, rule: RateLimitRule, allowed: boolean): RateLimitResult => ({
    allowed,
    limit: rule.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: new Date(Date.now() + Math.max(0, res.msBeforeNext)),
    windowMs: Math.max(1, Math.ceil(rule.windowMs / 1000)) * 1000,
  })

  const failure = (reason: unknown, rule: RateLimitRule): RateLimitResult => {
    // rate-limiter-flexible rejects with its result when the window is spent, with an Error when Redis failed.
    if (reason instanceof RateLimiterRes) return resultOf(reason, rule, false)
    throw new StoreUnavailableError(reason)
  }

  // Timeouts without a timer per call (this is the hot path of every request): calls join the
  // youngest of three generations, and every timeoutMs / 2 the oldest generation's unsettled calls
  // time out, so a call times out after timeoutMs to 1.5 x timeoutMs.
  let generations: Array<Array<() => void>> = [[], [], []]
  let sweeper: ReturnType<typeof setInterval> | undefined
  const sweep = () => {
    const expired = generations[2]!
    generations = [[], generations[0]!, generations[1]!]
    for (const expire of expired) expire()
  }

  const consume = (key: string, rule: RateLimitRule): Promise<RateLimitResult> => {
    const { redis, fallback } = limitersFor(rule)
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, Math.max(1, Math.floor(timeoutMs / 2)))
      // The sweeper must not keep a process alive that has nothing else to do.
      ;(sweeper as { unref?: () => void }).unref?.()
    }
    return new Promise<RateLimitResult>((resolve, reject) => {
      let settled = false
      const settle = (res: RateLimiterRes | undefined, reason?: unknown) => {
        if (settled) return
        settled = true
        try {
          resolve(res === undefined ? failure(reason, rule) : resultOf(res, rule, true))
        } catch (error) {
          reject(error)
        }
      }
      // A command on a connection cut mid-flight waits for the client's reconnect: bounded here.
      generations[0]!.push(() => {
        if (settled) return
        if (fallback === undefined) settle(undefined, new Error(`Redis did not answer within ${timeoutMs} ms`))
        else
          fallback.consume(key).then(
            (res) => settle(res),
            (reason: unknown) => settle(undefined, reason),
          )
      })
      redis.consume(key).then(
        (res) => settle(res),
        (reason: unknown) => settle(undefined, reason),
      )
    })
  }

  return {
    consume(key, rule = defaults) {
      const connected = whenConnected()
      return connected === undefined ? consume(key, rule) : connected.then(() => consume(key, rule))
    },
  }
}
