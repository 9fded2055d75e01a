/**
 * A fixed-window rate limiter in Redis, so that every process on one Redis shares one exact limit.
 * Built on rate-limiter-flexible's RateLimiterRedis (docs/stores.md#redis-rate-limits): one
 * round trip per request (its Lua script sets the window with `SET NX EX`, then `INCRBY` and
 * `PTTL`), so the count is atomic and the window is timed by the Redis server's clock.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimiter, RateLimitResult, RateLimitRule } from '../../ports/rate-limiter.js'
import { checkOptions, is, type OptionChecks } from '../../model/options.js'
import { StoreUnavailableError } from '../../ports/store.js'

/**
 * The part of an ioredis client (`new Redis(url)`, ioredis 5 and 6) the limiter uses: it defines its
 * Lua script as a command and reads `status` to wait while it first connects and to refuse at once
 * while disconnected after that.
 */
export interface IoRedisLikeClient {
  status: string
  defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): unknown
}

/**
 * The part of a node-redis client (`createClient({ url })`, redis 5 and 6, connected or connecting)
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

/** The options of {@link redisRateLimiter}, checked, with their defaults. */
interface LimiterSettings {
  client: IoRedisLikeClient & NodeRedisLikeClient
  /** An ioredis client (else node-redis). */
  ioredis: boolean
  defaults: RateLimitRule
  prefix: string
  onUnavailable: 'fail' | 'allow'
  timeoutMs: number
  connectTimeoutMs: number
}

/** What each option must be (src/model/options.ts). */
const CHECKS: OptionChecks<RedisRateLimiterOptions> = {
  client: (value) =>
    typeof (value as { defineCommand?: unknown } | null)?.defineCommand === 'function' ||
    typeof (value as { eval?: unknown } | null)?.eval === 'function'
      ? undefined
      : 'must be an ioredis client (defineCommand) or a node-redis client (eval)',
  limit: is.integer(1),
  windowMs: is.integer(1),
  prefix: is.string,
  onUnavailable: is.oneOf('fail', 'allow'),
  timeoutMs: is.integer(1),
  connectTimeoutMs: is.integer(0),
}

/** Checks the options (a `TypeError` naming each wrong one) and fills in the defaults. */
function settingsOf(options: RedisRateLimiterOptions): LimiterSettings {
  checkOptions(options, CHECKS, { name: 'redisRateLimiter', required: ['client'] })
  const client = options.client as IoRedisLikeClient & NodeRedisLikeClient
  return {
    client,
    ioredis: typeof client.defineCommand === 'function',
    defaults: { limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000 },
    prefix: options.prefix ?? 'tpa:rl',
    onUnavailable: options.onUnavailable ?? 'fail',
    timeoutMs: options.timeoutMs ?? 500,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
  }
}

/**
 * The wait for the client's first connection: a function giving a promise to wait on while the
 * client first connects, or undefined to go on now. A client made just before the limiter is still
 * connecting: the first requests wait for it (once, bounded) rather than each answering 503. Later,
 * a disconnected client fails at once, as documented.
 */
function firstConnection({ client, ioredis, connectTimeoutMs }: LimiterSettings): () => Promise<void> | undefined {
  const isReady = () => (ioredis ? client.status === 'ready' : client.isReady === true)
  const isConnecting = () => (ioredis ? IOREDIS_CONNECTING.has(client.status) : client.isOpen === true)
  let state: 'pending' | 'over' = isReady() ? 'over' : 'pending'
  let waiting: Promise<void> | undefined
  return () => {
    if (state === 'over') return undefined
    if (isReady()) {
      state = 'over'
      return undefined
    }
    if (waiting === undefined && !isConnecting()) return undefined
    waiting ??= new Promise<void>((resolve) => {
      const deadline = Date.now() + connectTimeoutMs
      const look = () => {
        if (isReady() || Date.now() >= deadline || !isConnecting()) {
          state = 'over'
          resolve()
        } else (setTimeout(look, READY_POLL_MS) as { unref?: () => void }).unref?.()
      }
      look()
    })
    return waiting
  }
}

/** A rule's window in whole seconds (Redis expiries here are in seconds). */
const windowSeconds = (rule: RateLimitRule) => Math.max(1, Math.ceil(rule.windowMs / 1000))

/** A rule's Redis limiter and, with onUnavailable "allow", its in-process fallback. */
interface RuleLimiters {
  redis: RateLimiterRedis
  fallback: RateLimiterMemory | undefined
}

/**
 * The limiters of each rule, made on first use: one pair per rule (a principal's own rateLimit has
 * its own window).
 */
function ruleLimiters({
  client,
  ioredis,
  prefix,
  onUnavailable,
}: LimiterSettings): (rule: RateLimitRule) => RuleLimiters {
  const limiters = new Map<string, RuleLimiters>()
  return (rule) => {
    const seconds = windowSeconds(rule)
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
}

function resultOf(res: RateLimiterRes, rule: RateLimitRule, allowed: boolean): RateLimitResult {
  return {
    allowed,
    limit: rule.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: new Date(Date.now() + Math.max(0, res.msBeforeNext)),
    windowMs: windowSeconds(rule) * 1000,
  }
}

function failure(reason: unknown, rule: RateLimitRule): RateLimitResult {
  // rate-limiter-flexible rejects with its result when the window is spent, with an Error when Redis failed.
  if (reason instanceof RateLimiterRes) return resultOf(reason, rule, false)
  throw new StoreUnavailableError(reason)
}

/**
 * Timeouts without a timer per call (this is the hot path of every request): the function returned
 * adds a call's expiry to the youngest of three generations, and every timeoutMs / 2 the oldest
 * generation's expiries run, so a call times out after timeoutMs to 1.5 x timeoutMs. The sweeping
 * interval starts with the first call.
 */
function timeoutSweeper(timeoutMs: number): (expire: () => void) => void {
  let generations: Array<Array<() => void>> = [[], [], []]
  let sweeper: ReturnType<typeof setInterval> | undefined
  const sweep = () => {
    const expired = generations[2]!
    generations = [[], generations[0]!, generations[1]!]
    for (const expire of expired) expire()
  }
  return (expire) => {
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, Math.max(1, Math.floor(timeoutMs / 2)))
      // The sweeper must not keep a process alive that has nothing else to do.
      ;(sweeper as { unref?: () => void }).unref?.()
    }
    generations[0]!.push(expire)
  }
}

/**
 * Counts `cost` requests at once in the window rate-limiter-flexible keeps (the same Redis key), or
 * none: the script adds the cost only while the window has room for it all, so a refused cost
 * spends nothing. Answers `[count, pttl, allowed]`.
 */
const COST_SCRIPT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local count = tonumber(redis.call('get', KEYS[1]))
local allowed = 0
if count + tonumber(ARGV[1]) <= tonumber(ARGV[3]) then
  count = redis.call('incrby', KEYS[1], ARGV[1])
  allowed = 1
end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {count, ttl, allowed}`
const COST_COMMAND = 'tpaRateLimitCost'

/** Runs {@link COST_SCRIPT} on the client: a command defined once on ioredis, `EVAL` on node-redis. */
function costScript({ client, ioredis }: LimiterSettings): (key: string, args: string[]) => Promise<unknown> {
  if (!ioredis) return (key, args) => client.eval(COST_SCRIPT, { keys: [key], arguments: args })
  client.defineCommand(COST_COMMAND, { numberOfKeys: 1, lua: COST_SCRIPT })
  const run = (client as unknown as Record<string, (...args: string[]) => Promise<unknown>>)[COST_COMMAND]!
  return (key, args) => run.call(client, key, ...args)
}

/** How one request (or one cost) is counted on Redis and, when Redis fails, on the fallback. */
interface Counting {
  redis(): Promise<RateLimitResult>
  /** Undefined without onUnavailable "allow". */
  fallback: (() => Promise<RateLimitResult>) | undefined
}

/** Counting one request: rate-limiter-flexible's own script, with its fallback as insurance. */
function countingOne({ redis, fallback }: RuleLimiters, key: string, rule: RateLimitRule): Counting {
  return {
    redis: () =>
      redis.consume(key).then(
        (res) => resultOf(res, rule, true),
        (reason: unknown) => failure(reason, rule),
      ),
    fallback:
      fallback &&
      (() =>
        fallback.consume(key).then(
          (res) => resultOf(res, rule, true),
          (reason: unknown) => failure(reason, rule),
        )),
  }
}

/**
 * Counting `cost` requests: {@link COST_SCRIPT}, and on a Redis error the fallback, which counts the
 * cost and, refused, gives it back at once.
 */
function countingCost(
  { redis, fallback }: RuleLimiters,
  key: string,
  rule: RateLimitRule,
  cost: number,
  settings: LimiterSettings,
  run: (key: string, args: string[]) => Promise<unknown>,
): Counting {
  const inFallback =
    fallback &&
    (() =>
      fallback.consume(key, cost).then(
        (res) => resultOf(res, rule, true),
        (reason: unknown) => {
          if (!(reason instanceof RateLimiterRes)) throw new StoreUnavailableError(reason)
          fallback.reward(key, cost).catch(() => {})
          const refused = resultOf(reason, rule, false)
          return { ...refused, remaining: Math.max(0, rule.limit - (reason.consumedPoints - cost)) }
        },
      ))
  const viaRedis = async (): Promise<RateLimitResult> => {
    const ready = settings.ioredis ? settings.client.status === 'ready' : settings.client.isReady === true
    if (!ready) throw new Error('Redis connection is not ready')
    const answer = (await run(redis.getKey(key), [String(cost), String(windowSeconds(rule)), String(rule.limit)])) as [
      number,
      number,
      number,
    ]
    const [count, ttl, allowed] = answer.map(Number) as [number, number, number]
    return {
      allowed: allowed === 1,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetAt: new Date(Date.now() + Math.max(0, ttl)),
      windowMs: windowSeconds(rule) * 1000,
    }
  }
  return {
    redis: () =>
      viaRedis().catch((reason: unknown) => {
        if (inFallback === undefined) throw new StoreUnavailableError(reason)
        return inFallback()
      }),
    fallback: inFallback,
  }
}

/**
 * Counts on Redis, settling on its answer or on the timeout, whichever comes first; on the timeout
 * the fallback counts instead, else Redis is unavailable.
 */
function consumeBounded(
  counting: Counting,
  timeoutMs: number,
  onTimeout: (expire: () => void) => void,
): Promise<RateLimitResult> {
  return new Promise<RateLimitResult>((resolve, reject) => {
    let settled = false
    const settle = (counted: Promise<RateLimitResult>) =>
      counted.then(
        (result) => {
          if (settled) return
          settled = true
          resolve(result)
        },
        (error: unknown) => {
          if (settled) return
          settled = true
          reject(error)
        },
      )
    // A command on a connection cut mid-flight waits for the client's reconnect: bounded here.
    onTimeout(() => {
      if (settled) return
      if (counting.fallback === undefined)
        settle(Promise.reject(new StoreUnavailableError(new Error(`Redis did not answer within ${timeoutMs} ms`))))
      else settle(counting.fallback())
    })
    settle(counting.redis())
  })
}

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
  const settings = settingsOf(options)
  const whenConnected = firstConnection(settings)
  const limitersFor = ruleLimiters(settings)
  const onTimeout = timeoutSweeper(settings.timeoutMs)
  const runCost = costScript(settings)
  const consume = (key: string, rule: RateLimitRule, cost: number) => {
    const limiters = limitersFor(rule)
    const counting =
      cost === 1 ? countingOne(limiters, key, rule) : countingCost(limiters, key, rule, cost, settings, runCost)
    return consumeBounded(counting, settings.timeoutMs, onTimeout)
  }
  return {
    countsCost: true,
    consume(key, rule = settings.defaults, cost = 1) {
      const connected = whenConnected()
      return connected === undefined ? consume(key, rule, cost) : connected.then(() => consume(key, rule, cost))
    },
  }
}
