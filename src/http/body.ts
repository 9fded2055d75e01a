import { ApiError, validationError } from './errors.js'

/** Deeper bodies are refused before validation, so that no schema recursion can overflow the stack. */
export const MAX_BODY_DEPTH = 64

/** Keys refused anywhere in a body or query: they could reach an object's prototype. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** 415 unless the request declares a JSON body (`application/json`, any parameters). */
export function requireJsonContentType(request: Request): void {
  const type = request.headers.get('content-type')
  const essence = type?.split(';', 1)[0]?.trim().toLowerCase()
  if (essence !== 'application/json') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON: send Content-Type: application/json')
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body exceeds ${maxBytes} bytes`)
}

/**
 * Reads the body as UTF-8 text, refusing it with 413 as soon as it passes `maxBytes`: a declared
 * `Content-Length` that is too large is refused before reading, and a chunked body is cut off
 * while it streams, so an unbounded body is never buffered.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes)
  if (request.body === null) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      // Not awaited: the cancel promise of a tee'd body (any request that was cloned) settles only
      // once every branch is cancelled, so awaiting it could hang the response forever.
      reader.cancel().catch(() => {})
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks, size)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ApiError('INVALID_JSON', 'The request body is not valid UTF-8')
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** Parses JSON text; 400 `INVALID_JSON` with the parser's reason when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new ApiError('INVALID_JSON', 'The request body is empty; send a JSON object')
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ApiError('INVALID_JSON', `The request body is not valid JSON: ${(error as Error).message}`)
  }
}

/**
 * Refuses what no schema should ever see: nesting deeper than {@link MAX_BODY_DEPTH}, keys that
 * could reach an object's prototype (`__proto__`, `constructor`, `prototype`), strings that no
 * database stores faithfully (NUL, unpaired surrogates) and numbers JSON cannot carry (`1e309`).
 * Iterative, so depth cannot overflow it.
 */
export function assertSafeJson(root: unknown, where: 'query' | 'body'): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }]
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!
    if (typeof value === 'string') {
      if (value.includes('\u0000') || !value.isWellFormed()) {
        throw validationError([
          { in: where, path, message: 'Strings must be well-formed Unicode without NUL characters' },
        ])
      }
      continue
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      // `1e309` parses to Infinity, which no schema of `unknown` would catch and JSON cannot carry back out (it becomes null).
      throw validationError([{ in: where, path, message: 'Numbers must be finite' }])
    }
    if (value === null || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) {
      throw validationError([
        { in: where, path, message: `Nesting deeper than ${MAX_BODY_DEPTH} levels is not allowed` },
      ])
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 })
      continue
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key]
      const childPath = path === '' ? key : `${path}.${key}`
      // valibot's `record` silently drops these three keys (its own pollution guard), so accepting
      // them would lose data without a word: refuse them anywhere instead.
      if (FORBIDDEN_KEYS.has(key)) {
        throw validationError([{ in: where, path: childPath, message: 'This key is not allowed' }])
      }
      stack.push({ value: key, path: childPath, depth: depth + 1 })
      stack.push({ value: child, path: childPath, depth: depth + 1 })
    }
  }
}
