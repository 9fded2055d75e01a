/**
 * The Redis the tests use: the server at REDIS_URL (default redis://127.0.0.1:6379) when one
 * answers PING, else a stand-in started here: a RESP2 server over ioredis-mock (which runs Lua
 * through fengari), enough for the rate limiter (EVAL/EVALSHA, SCRIPT, INFO, PING, FLUSHDB...).
 * Which one ran is printed, never skipped silently. REDIS_STANDIN=1 forces the stand-in.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import RedisMock from 'ioredis-mock'

export interface TestRedis {
  url: string
  host: string
  port: number
  kind: 'server' | 'stand-in'
  stop(): Promise<void>
}

export async function startTestRedis(): Promise<TestRedis> {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  const host = url.hostname
  const port = Number(url.port || 6379)
  if (process.env.REDIS_STANDIN !== '1' && (await answersPing(host, port))) {
    console.info(`[redis] using the Redis server at ${url.host}`)
    return { url: url.toString(), host, port, kind: 'server', stop: async () => {} }
  }
  const standIn = await startStandIn()
  console.info(
    `[redis] no Redis at ${url.host} (or REDIS_STANDIN=1): using the ioredis-mock stand-in on ${standIn.port}`,
  )
  return standIn
}

function answersPing(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(500, () => done(false))
    socket.on('error', () => done(false))
    socket.on('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'))
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')))
  })
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

async function startStandIn(): Promise<TestRedis> {
  const mock = new RedisMock() as unknown as Record<string, (...args: string[]) => Promise<Reply>>
  const sockets = new Set<Socket>()
  const run = async ([name = '', ...args]: string[]): Promise<Reply> => {
    const command = name.toLowerCase()
    if (command === 'ping') return 'PONG'
    if (command === 'info') return '# Server\r\nredis_version:7.2.0\r\nloading:0\r\n'
    if (command === 'select' || command === 'client' || command === 'quit') return 'OK'
    if (command === 'hello') return new Error('NOPROTO this stand-in speaks RESP2 only')
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
    socket.on('data', (data) => {
      const { commands, rest } = parseCommands(Buffer.concat([pending, data]))
      pending = rest
      // Answers go out in the order the commands came, as Redis's do.
      for (const command of commands) chain = chain.then(async () => void socket.write(encode(await run(command))))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `redis://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    kind: 'stand-in',
    stop: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
