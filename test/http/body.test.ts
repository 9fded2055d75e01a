import { describe, expect, it } from 'vitest'
import { operations, type ErrorBody } from 'tenant-public-api'
import { errorBody, IDS, raw, sampleOf, setup, snapshot } from './fixture.js'
import type { Reply, ValidationErrorReply } from 'tenant-public-api/testing'

const withBody = operations.filter((operation) => operation.body !== undefined)

/** A stream that never ends: it yields `chunk` on every pull and records pulls and cancellation. */
function endlessStream(chunk: Uint8Array) {
  const state = { pulls: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls++
      controller.enqueue(chunk)
    },
    cancel() {
      state.cancelled = true
    },
  })
  return { stream, state }
}

describe('content type (415)', () => {
  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['application/jsonx', 'application/jsonx'],
    ['application/json-patch+json', 'application/json-patch+json'],
    ['text/json', 'text/json'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['an empty value', ''],
  ])('every POST and PATCH answers 415 UNSUPPORTED_MEDIA_TYPE with %s', async (_label, contentType) => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of withBody) {
      const sample = sampleOf(operation)
      const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType }
      const result = await h.call<ErrorBody>(operation.method, sample.path, {
        rawBody: JSON.stringify(sample.body),
        headers,
      })
      expect(result.status, `${operation.id} ${contentType}`).toBe(415)
      expect(result.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
    ' application/json ',
  ])('accepts %j', async (contentType) => {
    const { h } = await setup()
    const result = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
      rawBody: '{"title":"Renamed"}',
      headers: { 'content-type': contentType },
    })
    expect(result.status).toBe(200)
    expect(result.body.data.title).toBe('Renamed')
  })

  it('operations without a body ignore the Content-Type', async () => {
    const { h } = await setup()
    expect((await h.call('GET', '/tickets', { headers: { 'content-type': 'text/plain' } })).status).toBe(200)
    expect(
      (
        await h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${IDS.enrollment}`, {
          headers: { 'content-type': 'image/png' },
        })
      ).status,
    ).toBe(200)
  })

  it('415 comes before 413, JSON parsing and validation', async () => {
    const { h } = await setup({ maxBodyBytes: 10 })
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation?unknown=1', {
      rawBody: '{'.repeat(100),
      headers: { 'content-type': 'text/plain' },
    })
    expect(result.status).toBe(415)
  })
})

describe('body size (413)', () => {
  it('a declared Content-Length over maxBodyBytes is refused without reading the body', async () => {
    const { api, key } = await setup({ maxBodyBytes: 1000 })
    const { stream, state } = endlessStream(new Uint8Array(100).fill(0x20))
    const response = await api(
      raw(`/budgets/${IDS.budget}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': '1001' },
        body: stream,
        duplex: 'half',
      }),
    )
    expect(response.status).toBe(413)
    expect((await errorBody(response)).code).toBe('PAYLOAD_TOO_LARGE')
    expect(state.pulls).toBeLessThanOrEqual(1)
  })

  it('a chunked body with no Content-Length that never ends is cut off past the limit, stream cancelled', async () => {
    const { api, key } = await setup({ maxBodyBytes: 64 * 1024 })
    const { stream, state } = endlessStream(new Uint8Array(4096).fill(0x20))
    const request = raw('/automation', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    })
    expect(request.headers.has('content-length')).toBe(false)
    const response = await api(request)
    expect(response.status).toBe(413)
    expect(state.cancelled).toBe(true)
    // 64 KiB in 4 KiB chunks: the reader stops right after the chunk that crossed the limit.
    expect(state.pulls).toBeLessThan(16 + 4)
  })

  it("a body over the limit on a cloned request (a tee'd stream, as logging middleware makes) is a 413", async () => {
    const { api, key } = await setup({ maxBodyBytes: 100 })
    const original = raw(`/budgets/${IDS.budget}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(500) }),
    })
    const clone = original.clone()
    const response = await Promise.race([
      api(clone),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2000)),
    ])
    expect(response).not.toBe('hung')
    expect((response as Response).status).toBe(413)
    // The other branch is untouched and still readable.
    expect((await original.text()).length).toBeGreaterThan(500)
  })

  it('a Content-Length that understates the body does not let a larger body through', async () => {
    const { api, key } = await setup({ maxBodyBytes: 100 })
    const { stream } = endlessStream(new TextEncoder().encode(' '.repeat(50)))
    const response = await api(
      raw(`/budgets/${IDS.budget}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': '10' },
        body: stream,
        duplex: 'half',
      }),
    )
    expect(response.status).toBe(413)
  })

  it('a body of exactly maxBodyBytes is accepted; one byte more is 413', async () => {
    const { h, store } = await setup({ maxBodyBytes: 100 })
    const json = '{"title":"Exact"}'
    const exact = json + ' '.repeat(100 - json.length)
    expect(new TextEncoder().encode(exact).byteLength).toBe(100)
    expect(
      (
        await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
          rawBody: exact,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200)
    const before = await snapshot(store)
    const over = await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
      rawBody: `${exact} `,
      headers: { 'content-type': 'application/json' },
    })
    expect(over.status).toBe(413)
    expect(await snapshot(store)).toEqual(before)
  })

  it('counts bytes, not characters', async () => {
    const { h } = await setup({ maxBodyBytes: 100 })
    // 30 characters of '€' are 90 bytes; with the JSON around them, 103 bytes.
    const body = JSON.stringify({ title: '€'.repeat(30) })
    expect(body.length).toBeLessThan(100)
    expect(
      (
        await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, {
          rawBody: body,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(413)
  })

  it('a chunked body under the limit is read whole', async () => {
    const { api, key } = await setup({ maxBodyBytes: 1000 })
    const parts = ['{"ti', 'tle":', '"Stream', 'ed"}'].map((part) => new TextEncoder().encode(part))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part)
        controller.close()
      },
    })
    const response = await api(
      raw(`/budgets/${IDS.budget}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      }),
    )
    expect(response.status).toBe(200)
    expect(((await response.json()) as { data: { title: string } }).data.title).toBe('Streamed')
  })

  it('413 comes before JSON parsing and validation', async () => {
    const { h } = await setup({ maxBodyBytes: 10 })
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation?bogus=1', {
      rawBody: 'not json at all',
      headers: { 'content-type': 'application/json' },
    })
    expect(result.status).toBe(413)
  })
})

describe('JSON (400 INVALID_JSON)', () => {
  const bytes = (...values: number[]) => new Uint8Array(values)
  it.each([
    ['malformed JSON', '{"title": '],
    ['a trailing comma', '{"title":"x",}'],
    ['single quotes', "{'title':'x'}"],
    ['an empty body', ''],
    ['only whitespace', ' \n\t '],
    ['NaN', '{"priority": NaN}'],
    ['Infinity', '{"priority": Infinity}'],
    ['a comment', '{"title":"x"} // hi'],
    ['two documents', '{"title":"x"}{"title":"y"}'],
    ['invalid UTF-8 (0xFF)', bytes(0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d)],
    ['an overlong encoding (0xC0 0xAF)', bytes(0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d)],
    [
      'a UTF-8-encoded surrogate (0xED 0xA0 0x80)',
      bytes(0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d),
    ],
    ['a truncated sequence (0xE2 0x82)', bytes(0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d)],
  ])('%s is 400 INVALID_JSON on every POST and PATCH', async (_label, rawBody) => {
    const { h, store } = await setup()
    const before = await snapshot(store)
    for (const operation of withBody) {
      const result = await h.call<ErrorBody>(operation.method, sampleOf(operation).path, {
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expect(result.status, operation.id).toBe(400)
      expect(result.body.code).toBe('INVALID_JSON')
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('a POST or PATCH with no body at all is INVALID_JSON', async () => {
    const { h } = await setup()
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
      headers: { 'content-type': 'application/json' },
    })
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('INVALID_JSON')
  })

  it('INVALID_JSON comes before validation of the query', async () => {
    const { h } = await setup()
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation?bogus=1', {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    })
    expect(result.body.code).toBe('INVALID_JSON')
  })

  it.each([['[]'], ['"text"'], ['null'], ['42'], ['true']])(
    'valid JSON that is not an object (%s) is a VALIDATION_ERROR',
    async (rawBody) => {
      const { h } = await setup()
      const result = await h.call<ValidationErrorReply>('PATCH', `/budgets/${IDS.budget}`, {
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expect(result.status).toBe(400)
      expect(result.body.code).toBe('VALIDATION_ERROR')
      expect(result.body.details[0]).toMatchObject({ in: 'body', path: '' })
    },
  )
})
