/**
 * `tenant-public-api/redis`: a rate limiter on Redis, for hosts that already run one. ioredis and
 * node-redis are optional peers: pass your own client; their types are not imported (the client
 * is described by what the limiter uses of it).
 */
export {
  redisRateLimiter,
  type IoRedisLikeClient,
  type NodeRedisLikeClient,
  type RedisRateLimiterOptions,
} from './redis-rate-limiter.js'
