/**
 * One answer, one byte budget (docs/mcp.md#bounded-answers), on every store: a key with
 * `automation.write` and `events.read` makes events of about 1 and 2 MB with two API writes (a rule
 * created with a condition value of about 1 MB, then changed: the change's event holds the rule new
 * and as it was), of plain text and of backslashes and quotes (whose escaping doubles them). Lone
 * and batched `listEvents` calls answer within `maxAnswerBytes`: a page that fits whole, a page cut
 * to fit with its `nextCursor`, or the tool error naming the budget.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, memoryRateLimiter, type Store } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { MINIMAL_RULE } from '../../src/testing/conformance/fixture-automation-rules.js'
import { createTestPostgresStore } from '../support/postgres.js'
import type { ToolResult } from './support.js'

const MIB = 1024 * 1024
const BASE = 'http://mcp.test/api/public/v1'

const STORES: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', async () => createSqliteStore({ filename: ':memory:' })],
  ['postgres', async () => (await createTestPostgresStore()).store],
]
const opened: Store[] = []
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()))
})

/** The values of about 1 MB (the largest a default 1 MiB body holds): plain text, and backslashes and quotes. */
const KINDS: Array<[string, (n: number) => string]> = [
  ['plain text', (n) => String.fromCharCode(97 + n).repeat(1_000_000)],
  ['backslashes and quotes', (n) => (n % 2 === 0 ? '\\"' : '"\\').repeat(250_000)],
]

const ruleWith = (value: string) => ({
  ...MINIMAL_RULE,
  conditions: [{ logic: 'AND', conditions: [{ field: 'title', operator: 'contains', value }] }],
})

function client(
  store: Store,
  tenant: string,
  maxAnswerBytes: number,
  options: { toolsPageSize?: number; scopes?: '*' } = {},
) {
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    rateLimiter: memoryRateLimiter({ limit: 100_000 }),
    mcp: { maxAnswerBytes, ...(options.toolsPageSize ? { toolsPageSize: options.toolsPageSize } : {}) },
  })
  const authorization = `Bearer ${testKey(tenant, options.scopes ?? ['automation.write', 'events.read'])}`
  const rest = async (method: string, path: string, body?: unknown) => {
    const response = await api(
      new Request(`${BASE}${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  /** An MCP POST: its answer's size in bytes, and the answer. */
  const mcp = async (message: unknown) => {
    const response = await api(
      new Request(`${BASE}/mcp`, {
        method: 'POST',
        headers: { authorization, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify(message),
      }),
    )
    expect(response.status).toBe(200)
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { size: bytes.length, json: JSON.parse(new TextDecoder().decode(bytes)) as unknown }
  }
  return { rest, mcp }
}

const listEvents = (id: number, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'listEvents', arguments: args },
})
type Answer = { result: ToolResult }
type Page = { data: Array<{ id: string; type: string }>; pagination: { nextCursor: string; hasNextPage: boolean } }

/** The text block holds the same JSON as structuredContent (escaping included). */
function checked(result: ToolResult): ToolResult {
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent)
  return result
}

function expectTooLarge(result: ToolResult, budget: number): void {
  checked(result)
  expect([result.isError, result.structuredContent?.code, result._meta?.['tenant-public-api/status']]).toEqual([
    true,
    'PAYLOAD_TOO_LARGE',
    413,
  ])
  expect(result.structuredContent?.error).toMatch(/maxAnswerBytes/)
  expect(Number(/(\d+) bytes left/.exec(String(result.structuredContent?.error))?.[1])).toBeLessThanOrEqual(budget)
}

describe.each(STORES)('the answer budget (%s)', (_name, create) => {
  it.each(KINDS)(
    'events of about 1 and 2 MB of %s, lone and batched, answer within the budget',
    {
      timeout: 120_000,
    },
    async (_kind, value) => {
      const store = await create()
      opened.push(store)
      const tenant = `tenant-budget-${crypto.randomUUID()}`
      const budget = 3 * MIB
      const { rest, mcp } = client(store, tenant, budget)
      const created = await rest('POST', '/automation', ruleWith(value(0)))
      expect(created.status).toBe(201)
      const id = (created.body.data as { id: string }).id
      expect((await rest('PATCH', `/automation/${id}`, { conditions: ruleWith(value(1)).conditions })).status).toBe(200)

      // Lone: the REST page (1 MiB budget) holds the created event, which fits; the change's (2 MB) does not.
      const first = await mcp(listEvents(1, { limit: 100 }))
      expect(first.size).toBeLessThanOrEqual(budget)
      const page = checked((first.json as Answer).result)
      expect(page.isError).toBe(false)
      const { data, pagination } = page.structuredContent as unknown as Page
      expect(data.map((event) => event.type)).toEqual(['automation_rule.created'])
      expect(pagination.hasNextPage).toBe(true)
      const second = await mcp(listEvents(2, { limit: 100, after: pagination.nextCursor }))
      expect(second.size).toBeLessThan(4096)
      expectTooLarge((second.json as Answer).result, budget)

      // Batched: ten calls, answered in one body within the same budget; what does not fit is the tool error.
      const batch = await mcp(Array.from({ length: 10 }, (_, i) => listEvents(10 + i, { limit: 100 })))
      expect(batch.size).toBeLessThanOrEqual(budget)
      const answers = batch.json as Answer[]
      expect(answers.map((answer) => (answer as { id?: number }).id)).toEqual(
        Array.from({ length: 10 }, (_, i) => 10 + i),
      )
      expect(checked(answers[0]!.result).isError).toBe(false)
      for (const answer of answers.slice(1)) expectTooLarge(answer.result, budget)
      const after = await mcp(Array.from({ length: 10 }, (_, i) => listEvents(i, { after: pagination.nextCursor })))
      expect(after.size).toBeLessThan(10 * 4096)
      for (const answer of after.json as Answer[]) expectTooLarge(answer.result, budget)
    },
  )

  it('cuts a page that does not fit to what fits, with its nextCursor: a walk by cursor sees every event', {
    timeout: 120_000,
  }, async () => {
    const store = await create()
    opened.push(store)
    const tenant = `tenant-budget-${crypto.randomUUID()}`
    const budget = MIB
    const { rest, mcp } = client(store, tenant, budget)
    for (let n = 0; n < 5; n++)
      expect((await rest('POST', '/automation', ruleWith(String.fromCharCode(97 + n).repeat(200_000)))).status).toBe(
        201,
      )
    const all = ((await rest('GET', '/events?limit=100')).body as unknown as Page).data
    // The REST page holds four or five of them (its own 1 MiB budget): twice that passes the answer's.
    expect(all.length).toBeGreaterThanOrEqual(4)
    const seen: string[] = []
    let after: string | undefined
    for (let pages = 0; pages < 10; pages++) {
      const { size, json } = await mcp(listEvents(pages, { limit: 100, ...(after ? { after } : {}) }))
      expect(size).toBeLessThanOrEqual(budget)
      const { data, pagination } = checked((json as Answer).result).structuredContent as unknown as Page
      if (data.length === 0) break
      if (pages === 0) expect(data.length).toBeLessThan(all.length)
      seen.push(...data.map((event) => event.id))
      expect(pagination.nextCursor).toBe(data.at(-1)!.id)
      after = pagination.nextCursor
    }
    expect(seen).toEqual(all.map((event) => event.id))
  })
})

describe('maxAnswerBytes', () => {
  it.each([0, 65_535, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4194304' as unknown as number])(
    'refuses %j with a TypeError naming it',
    (maxAnswerBytes) => {
      const options = { store: createMemoryStore(), keyResolver: testKeyResolver(), mcp: { maxAnswerBytes } }
      expect(() => createPublicApi(options)).toThrow(/mcp\.maxAnswerBytes must be an integer of at least 65536/)
    },
  )

  it('bounds what is not a tool result too: a tools/list page past it is a JSON-RPC error naming it', async () => {
    const budget = 64 * 1024
    const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })
    // The whole catalogue (about 114 KB) cannot fit.
    const whole = client(createMemoryStore(), 'tenant-budget-list', budget, { scopes: '*' })
    const lone = await whole.mcp(list(1))
    const error = (lone.json as { error: { code: number; message: string } }).error
    expect([error.code, /maxAnswerBytes/.test(error.message)]).toEqual([-32000, true])
    // Pages of 8 tools (about 30 KB) in a batch: what fits is answered, then the error; all within the budget.
    const paged = client(createMemoryStore(), 'tenant-budget-list', budget, { scopes: '*', toolsPageSize: 8 })
    const batch = await paged.mcp(Array.from({ length: 4 }, (_, i) => list(i)))
    expect(batch.size).toBeLessThanOrEqual(budget)
    const answers = batch.json as Array<{ result?: { tools: unknown[] }; error?: { code: number } }>
    expect(answers[0]!.result?.tools).toHaveLength(8)
    expect(answers.at(-1)!.error?.code).toBe(-32000)
  })
})
