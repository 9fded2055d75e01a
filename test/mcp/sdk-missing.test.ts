/**
 * When the SDK cannot be loaded although creation did not find it missing (docs/mcp.md): a runtime
 * or bundler that cannot resolve a module without loading it (so createPublicApi() cannot tell), or
 * an SDK that resolves but fails to load. Every MCP request then answers 500 `INTERNAL_ERROR`, saying
 * nothing of why, and `onError` is told what to install; the REST API is unaffected. The SDK's
 * modules are replaced by ones that fail to load, while they still resolve. Where the runtime finds
 * the SDK missing, creation throws instead: test/mcp/options.test.ts, test/build/mcp-sdk-builds.test.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'

// Hoisted above the imports by vitest, so each factory is written out: no shared function exists yet.
vi.mock('@modelcontextprotocol/sdk/server/index.js', () => {
  throw new Error("Cannot find package '@modelcontextprotocol/sdk'")
})
vi.mock('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js', () => {
  throw new Error("Cannot find package '@modelcontextprotocol/sdk'")
})
vi.mock('@modelcontextprotocol/sdk/types.js', () => {
  throw new Error("Cannot find package '@modelcontextprotocol/sdk'")
})

describe('MCP endpoint whose SDK fails to load', () => {
  it('answers 500 without the cause, tells onError what to install, and leaves REST alone', async () => {
    const errors: unknown[] = []
    const api = createPublicApi({
      store: createMemoryStore(),
      keyResolver: testKeyResolver(),
      mcp: true,
      onError: (error) => {
        errors.push(error)
      },
    })
    const headers = {
      authorization: `Bearer ${testKey('tenant-a')}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    }
    for (const method of ['initialize', 'ping', 'tools/list']) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} })
      const response = await postMcp(api, headers, body)
      const text = await response.text()
      expect([method, response.status, (JSON.parse(text) as { code: string }).code]).toEqual([
        method,
        500,
        'INTERNAL_ERROR',
      ])
      expect(text).not.toMatch(/modelcontextprotocol|install/)
    }
    expect(errors).toHaveLength(3)
    for (const error of errors) expect((error as Error).message).toMatch(/npm install @modelcontextprotocol\/sdk/)
    const rest = await api(new Request('http://a.test/api/public/v1/tickets', { headers }))
    expect(rest.status).toBe(200)
  })
})

function postMcp(api: (request: Request) => Promise<Response>, headers: Record<string, string>, body: string) {
  return api(new Request('http://a.test/api/public/v1/mcp', { method: 'POST', headers, body }))
}
