/**
 * The Redis the tests use: the server at REDIS_URL (default redis://127.0.0.1:6379) when one
 * answers PING, else a stand-in started here: a RESP2 server over ioredis-mock (which runs Lua
 * through fengari), enough for the rate limiter (EVAL/EVALSHA, SCRIPT, INFO, PING, SELECT...).
 * The whole URL counts: its database index (`/3`), user and password, and `rediss:` for TLS; the
 * stand-in keeps the database index (one mock per database). Which Redis and which database ran is
 * printed, never skipped silently. REDIS_STANDIN=1 forces the stand-in.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import RedisMock from 'ioredis-mock'

export interface TestRedis {
  /** The URL to connect with: REDIS_URL as given (database, user, password, TLS), or the stand-in's. */
  url: string
  host: string
  port: number
  /** The database index of the URL's path; 0 without one. */
  db: number
  /** The URL's scheme is `rediss:`. */
  tls: boolean
  kind: 'server' | 'stand-in'
  /** The URL of a proxy of this Redis on 127.0.0.1 at `port`: the same scheme, user, password and database. */
  via(port: number): string
  /**
   * TLS options for a client that connects through a proxy (`via`): the certificate is the server's,
   * so its name is the URL's host, not 127.0.0.1. Undefined without TLS.
   */
  tlsVia: { servername: string } | undefined
  stop(): Promise<void>
}

/** What a Redis URL says of where and how to connect. */
export type RedisTarget = Pick<TestRedis, 'url' | 'host' | 'port' | 'db' | 'tls' | 'via' | 'tlsVia'>

/**
 * Reads a Redis URL whole: `redis[s]://[user:password@]host[:port][/db]`.
 *
 * @example
 * redisTarget('rediss://:secret@cache.example:6380/3').via(4000) // 'rediss://:secret@127.0.0.1:4000/3'
 */
export function redisTarget(given: string): RedisTarget {
  const url = new URL(given)
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new Error(`REDIS_URL: ${url.protocol} is not redis:`)
  const path = url.pathname.replace(/^\//, '')
  const db = path === '' ? 0 : Number(path)
  if (!Number.isSafeInteger(db) || db < 0) throw new Error(`REDIS_URL: "${path}" is not a database index`)
  const tls = url.protocol === 'rediss:'
  const via = (at: number) => {
    const proxied = new URL(url)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(at)
    return proxied.toString()
  }
  const port = Number(url.port || 6379)
  return {
    url: url.toString(),
    host: url.hostname,
    port,
    db,
    tls,
    via,
    tlsVia: tls ? { servername: url.hostname } : undefined,
  }
}

export async function startTestRedis(
  given: string = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<TestRedis> {
  const target = redisTarget(given)
  const where = `${target.host}:${target.port}`
  const answer = process.env.REDIS_STANDIN === '1' ? 'REDIS_STANDIN=1' : await answersPing(target.url)
  if (answer === true) {
    console.info(`[redis] using the Redis server at ${where}, database ${target.db}${target.tls ? ', over TLS' : ''}`)
    return { ...target, kind: 'server', stop: async () => {} }
  }
  const standIn = await startStandIn(target.db)
  const used = `the ioredis-mock stand-in on ${standIn.port}, database ${target.db}`
  console.info(`[redis] no Redis at ${where} (${answer}): using ${used}`)
  return standIn
}

/** True when the Redis at `url` answers PING as a client of that URL (TLS, AUTH, SELECT); else why not. */
async function answersPing(url: string): Promise<true | string> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    return (await client.ping()) === 'PONG' ? true : 'no PONG'
  } catch (error) {
    return (error as Error).message
  } finally {
    client.disconnect()
  }
}

type Reply = string | number | null | Error | Reply[] | { status: string }

function encode(value: Reply): string {
  if (value === null || value === undefined) return '$-1\r\n'
  if (value instanceof Error) return `-${value.message.replace(/\r?\n/g, ' ')}\r\n`
  if (Array.isArray(value)) return `*${value.length}\r\n${value.map(encode).join('')}`
  if (typeof value === 'number') return `:${Math.trunc(value)}\r\n`
  if (typeof value === 'object') return `+${value.status}\r\n`
  if (value === 'OK' || value === 'PONG') return `+${value}\r\n`
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`
}

/** Parses complete RESP arrays of bulk strings off the front of `buffer`. */
function parseCommands(buffer: Buffer): { commands: string[][]; rest: Buffer } {
  const commands: string[][] = []
  let offset = 0
  for (;;) {
    const start = offset
    if (buffer[offset] !== 0x2a) break
    const end = buffer.indexOf('\r\n', offset)
    if (end < 0) break
    const count = Number(buffer.subarray(offset + 1, end).toString())
    offset = end + 2
    const args: string[] = []
    let complete = true
    for (let i = 0; i < count; i++) {
      const lineEnd = buffer.indexOf('\r\n', offset)
      if (lineEnd < 0 || buffer[offset] !== 0x24) {
        complete = false
        break
      }
      const length = Number(buffer.subarray(offset + 1, lineEnd).toString())
      if (buffer.length < lineEnd + 2 + length + 2) {
        complete = false
        break
      }
      args.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + length).toString())
      offset = lineEnd + 2 + length + 2
    }
    if (!complete) {
      offset = start
      break
    }
    commands.push(args)
  }
  return { commands, rest: buffer.subarray(offset) }
}

async function startStandIn(db: number): Promise<TestRedis> {
  type Mock = Record<string, (...args: string[]) => Promise<Reply>>
  // One mock per database: ioredis-mock keeps a database's data apart by its `db` option, and has no SELECT.
  const databases = new Map<number, Mock>()
  const database = (index: number) => {
    let mock = databases.get(index)
    if (mock === undefined) databases.set(index, (mock = new RedisMock({ db: index }) as unknown as Mock))
    return mock
  }
  const sockets = new Set<Socket>()
  const run = async (selected: { db: number }, [name = '', ...args]: string[]): Promise<Reply> => {
    const command = name.toLowerCase()
    if (command === 'ping') return 'PONG'
    if (command === 'info') return '# Server\r\nredis_version:7.2.0\r\nloading:0\r\n'
    if (command === 'select') {
      const index = Number(args[0])
      if (!Number.isSafeInteger(index) || index < 0 || index > 15) return new Error('ERR DB index is out of range')
      selected.db = index
      return 'OK'
    }
    if (command === 'auth' || command === 'client' || command === 'quit') return 'OK'
    if (command === 'hello') return new Error('NOPROTO this stand-in speaks RESP2 only')
    const mock = database(selected.db)
    const method = mock[command]
    if (typeof method !== 'function') return new Error(`ERR unknown command '${name}'`)
    try {
      const result = await method.apply(mock, args)
      return result === 'OK' ? { status: 'OK' } : (result as Reply)
    } catch (error) {
      return new Error((error as Error).message.startsWith('NOSCRIPT') ? 'NOSCRIPT' : `ERR ${(error as Error).message}`)
    }
  }
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let pending: Buffer = Buffer.alloc(0)
    let chain = Promise.resolve()
    // Each connection starts on database 0, as with Redis, until it sends SELECT.
    const selected = { db: 0 }
    socket.on('data', (data) => {
      const { commands, rest } = parseCommands(Buffer.concat([pending, data]))
      pending = rest
      // Answers go out in the order the commands came, as Redis's do.
      for (const command of commands)
        chain = chain.then(async () => void socket.write(encode(await run(selected, command))))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const via = (at: number) => `redis://127.0.0.1:${at}/${db}`
  return {
    url: via(port),
    host: '127.0.0.1',
    port,
    db,
    tls: false,
    kind: 'stand-in',
    via,
    tlsVia: undefined,
    stop: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
