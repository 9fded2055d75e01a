/**
 * The `mcp` option is checked like every option of createPublicApi (docs/mcp.md): unknown keys and
 * values of the wrong kind are a TypeError at creation naming each of them, and `mcp` on where the
 * SDK is not installed is a TypeError saying what to install, but only when the runtime can tell.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type McpOptions } from 'tenant-public-api'
import { testKeyResolver } from 'tenant-public-api/testing'
import { mcpConfig } from '../../src/mcp/options.js'
import { runtimeResolve, SDK_MISSING, sdkStatus } from '../../src/mcp/sdk.js'

const create = (mcp: unknown) =>
  createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver(), mcp: mcp as McpOptions })

/** A resolver failing as Node's does for a package that is not installed. */
const notFound = (code: string) => () => {
  throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code })
}

describe('the mcp option', () => {
  it('refuses misspelt keys, naming each with the option it was probably meant to be', () => {
    expect(() => create({ readonly: true, allowedOrigin: ['https://portal.example'] })).toThrow(
      new TypeError(
        'mcp has no option "readonly" (did you mean readOnly?); ' +
          'mcp has no option "allowedOrigin" (did you mean allowedOrigins?). ' +
          'The options of mcp: readOnly, allowedOrigins, toolsPageSize, maxAnswerBytes',
      ),
    )
    expect(() => create({ pageSize: 10 })).toThrow(/^mcp has no option "pageSize"\. The options of mcp: /)
  })

  it.each([
    [{ readOnly: 'yes' }, 'mcp.readOnly must be a boolean'],
    [{ readOnly: 1 }, 'mcp.readOnly must be a boolean'],
    [{ allowedOrigins: 'https://portal.example' }, 'mcp.allowedOrigins must be an array of origins'],
    [{ allowedOrigins: [7] }, 'mcp.allowedOrigins must hold origins such as https://portal.example'],
    [{ allowedOrigins: ['https://portal.example/'] }, 'not "https://portal.example/"'],
    [{ allowedOrigins: ['portal.example'] }, 'not "portal.example"'],
    [{ toolsPageSize: 0 }, 'mcp.toolsPageSize must be a positive integer'],
    [{ toolsPageSize: 1.5 }, 'mcp.toolsPageSize must be a positive integer'],
    [{ toolsPageSize: '10' }, 'mcp.toolsPageSize must be a positive integer'],
  ])('refuses %j at creation', (mcp, message) => {
    expect(() => create(mcp)).toThrow(TypeError)
    expect(() => create(mcp)).toThrow(message)
  })

  it('names every problem of one option object at once', () => {
    expect(() => create({ readOnly: 'no', toolsPageSize: -1, origins: [] })).toThrow(
      /^mcp\.readOnly must be a boolean; mcp\.toolsPageSize must be a positive integer; mcp has no option "origins"/,
    )
  })

  it.each([[[]], ['yes'], [1], [null]])('refuses mcp: %j, which is neither a switch nor options', (mcp) => {
    expect(() => create(mcp)).toThrow(/^mcp must be true, false or an object of options \(readOnly, /)
  })

  it('takes true, false, undefined values and exact origins', () => {
    expect(
      mcpConfig({ readOnly: undefined, allowedOrigins: ['https://portal.example:8443', 'http://localhost:3000'] }),
    ).toEqual({
      readOnly: false,
      allowedOrigins: new Set(['https://portal.example:8443', 'http://localhost:3000']),
      toolsPageSize: 100,
      maxAnswerBytes: 4 * 1024 * 1024,
    })
    expect(mcpConfig(false)).toBeUndefined()
    expect(() => create(true)).not.toThrow()
  })
})

describe('the SDK at creation', () => {
  it('is found installed here, by the runtime’s own resolver', () => {
    expect(runtimeResolve()).toBeTypeOf('function')
    expect(sdkStatus(runtimeResolve())).toBe('installed')
  })

  it('is a TypeError saying what to install when the resolver does not find it (import or require)', () => {
    for (const code of ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']) {
      expect(sdkStatus(notFound(code))).toBe('missing')
      expect(() => mcpConfig(true, notFound(code))).toThrow(new TypeError(SDK_MISSING))
    }
    expect(SDK_MISSING).toMatch(/npm install @modelcontextprotocol\/sdk$/)
    expect(mcpConfig(false, notFound('ERR_MODULE_NOT_FOUND'))).toBeUndefined()
  })

  it('is no error where the runtime cannot tell: no resolver (a bundler), or a failure of another kind', () => {
    expect(sdkStatus(undefined)).toBe('unknown')
    const otherFailure = () => {
      throw new TypeError('Import "@modelcontextprotocol/sdk" not a dependency')
    }
    expect(sdkStatus(otherFailure)).toBe('unknown')
    expect(mcpConfig(true, otherFailure)).toBeDefined()
    expect(mcpConfig(true, () => 'file:///sdk.js')).toBeDefined()
  })
})
