/**
 * `npm run bench mcp` (or `npx tsx bench/mcp.ts`): the MCP endpoint (docs/mcp.md) on the memory
 * store with the demo tenant, paired in turns in one process (medians, and the median of the
 * per-round ratios):
 *
 * - a `tools/call` of `listTickets` (limit 25) against the same `GET /tickets?limit=25` through the
 *   Fetch handler (the baseline; target <= 1.3x);
 * - a `tools/list` of a full-scope key (served from a cached text) against the same baseline;
 * - `initialize`, which goes through the SDK's Server and transport, for scale;
 *
 * each first through the Fetch handler with native `Request`s (the reply a native `Response`, read
 * by `text()`), then through the Node mount in process (bench/node-mount.ts: the bridge's request,
 * the reply written from its parts, no `Response` built), the baseline taking the same path. The
 * MCP answer carries the REST body twice (structuredContent and the text block), so a path that
 * pays per byte of the reply (undici's `Response`) pays that twice (bench/README.md#mcp).
 *
 * Last, the transport's floor through the Fetch handler: the same two requests made and read and
 * the same two answers made fresh and read, with no work between. What the MCP side's transport
 * costs beyond the REST side's, added to the REST request, is the fastest a tool call can be.
 *
 * Env: BENCH_ROUNDS (default 30), BENCH_BATCH (requests per timed batch, default 200).
 */
import * as node from '../adapters/node.js'
import { createMemoryStore, createPublicApi, memoryRateLimiter } from '../src/index.js'
import { createDemoData, DEMO_TENANT_ID, testKey, testKeyResolver } from '../src/testing/index.js'
import { throughNodeMount } from './node-mount.js'
import { paired, timeInTurns } from './paired.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)
const BATCH = Number(process.env.BENCH_BATCH ?? 200)

const store = createMemoryStore()
await store.seed(DEMO_TENANT_ID, createDemoData())
const api = createPublicApi({
  store,
  keyResolver: testKeyResolver(),
  rateLimiter: memoryRateLimiter({ limit: 1e9 }),
  mcp: true,
})
const authorization = `Bearer ${testKey(DEMO_TENANT_ID)}`
const BASE = 'http://bench/api/public/v1'
const MCP_HEADERS = {
  authorization,
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
}

/** Reads the answer as a client would; a non-200 stops the bench (the content is checked once, before timing). */
async function expectOk(response: Response): Promise<string> {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 200)}`)
  return text
}

/** Refuses an answer that is a JSON-RPC error or a tool error: checked once, outside the timed loops. */
function assertResult(text: string): void {
  const message = JSON.parse(text) as { error?: unknown; result?: { isError?: boolean } }
  if (message.error !== undefined || message.result?.isError === true)
    throw new Error(`unexpected answer: ${text.slice(0, 200)}`)
}

/** How a request reaches the handler and its answer is read: the Fetch handler's caller, or the Node mount. */
type Path = (method: string, path: string, headers: Record<string, string>, body?: string) => Promise<string>

const viaFetch: Path = async (method, path, headers, body) =>
  expectOk(await api(new Request(`${BASE}${path}`, { method, headers, body: body ?? null })))
const viaNodeMount: Path = async (method, path, headers, body) => {
  const answer = await throughNodeMount(node, api, { method, target: `/api/public/v1${path}`, headers, body })
  if (answer.status !== 200) throw new Error(`unexpected answer ${answer.status}: ${answer.text().slice(0, 200)}`)
  return answer.text()
}

/** The measured tool call. */
const CALL_MESSAGE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'listTickets', arguments: { limit: 25 } },
}

/** The measured requests on one path: the REST baseline and the three MCP messages. */
function requests(path: Path) {
  const rpc = (message: object) => () => path('POST', '/mcp', MCP_HEADERS, JSON.stringify(message))
  return {
    rest: () => path('GET', '/tickets?limit=25', { authorization }),
    call: rpc(CALL_MESSAGE),
    list: rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    initialize: rpc({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  }
}

const ms = (value: number) => `${value.toFixed(3)} ms`

const paths = [
  ['the Fetch handler', requests(viaFetch)],
  ['the Node mount, in process', requests(viaNodeMount)],
] as const
for (const [, { call, list, initialize }] of paths) for (const fn of [call, list, initialize]) assertResult(await fn())
const bytes = Buffer.byteLength(await paths[0][1].call())
console.log(`demo tenant, memory store; tools/call answer ${bytes} bytes, ${ROUNDS} rounds of ${BATCH}`)
for (const [title, { rest, call, list, initialize }] of paths) {
  console.log(`\nthrough ${title}:`)
  for (const [name, fn, target] of [
    ['tools/call listTickets', call, 1.3],
    ['tools/list (full scope)', list, undefined],
    ['initialize (SDK)', initialize, undefined],
  ] as const) {
    const { a, b, ratio } = await paired(fn, rest, {
      rounds: ROUNDS,
      batch: BATCH,
      beforeBatch: () => globalThis.gc?.(),
    })
    const verdict =
      target === undefined ? '' : ratio <= target ? ` (target <= ${target}x: met)` : ` (target <= ${target}x: MISSED)`
    console.log(`  ${name.padEnd(26)} ${ms(a)} vs GET /tickets ${ms(b)}: ${ratio.toFixed(2)}x${verdict}`)
  }
}

/**
 * The transport alone, through the Fetch handler's caller: each request made (the MCP one with its
 * JSON body, read and parsed as the endpoint does) and an answer of the same bytes made and read.
 */
async function transportFloor(): Promise<void> {
  const { rest, call } = requests(viaFetch)
  const [restText, callText] = [await rest(), await call()]
  const callBody = JSON.stringify(CALL_MESSAGE)
  // Made afresh per answer, as the API makes its text: a cached string would skip what a new one costs.
  const fresh = (text: string) => `${text.slice(0, -1)} `
  const answer = (text: string) => new Response(fresh(text), { headers: { 'content-type': 'application/json' } })
  const restAlone = async () => {
    new Request(`${BASE}/tickets?limit=25`, { headers: { authorization } }).headers.get('authorization')
    return answer(restText).text()
  }
  const callAlone = async () => {
    JSON.parse(await new Request(`${BASE}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: callBody }).text())
    return answer(callText).text()
  }
  const times = await timeInTurns([rest, restAlone, callAlone], {
    rounds: ROUNDS,
    batch: BATCH,
    beforeBatch: () => globalThis.gc?.(),
  })
  const [full, restTransport, callTransport] = times.medians as [number, number, number]
  const extra = callTransport - restTransport
  console.log(
    `\nthe transport's floor through the Fetch handler: GET /tickets ${ms(full)}, of which its transport ` +
      `${ms(restTransport)}; the tool call's transport ${ms(callTransport)} (${Math.round(extra * 1000)} us more)`,
  )
  console.log(
    `  the fastest a tools/call can be, REST's work plus that transport: ${((full + extra) / full).toFixed(2)}x`,
  )
}
await transportFloor()
