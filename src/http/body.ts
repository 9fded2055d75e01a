import { ApiError, validationError, type ValidationIssue } from './errors.js'
import { clipText, FORBIDDEN_KEYS, formatPath, isUnsafeText, listProblems } from './validation.js'

/** Deeper bodies are refused before validation, so that no schema recursion can overflow the stack. */
const MAX_BODY_DEPTH = 64

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
    // Clipped: an engine's message may quote the input.
    throw new ApiError('INVALID_JSON', `The request body is not valid JSON: ${clipText((error as Error).message)}`)
  }
}

/**
 * Refuses what no schema should ever see: nesting deeper than {@link MAX_BODY_DEPTH}, keys that
 * could reach an object's prototype (`__proto__`, `constructor`, `prototype`), strings that no
 * database stores faithfully (NUL, unpaired surrogates) and numbers JSON cannot carry (`1e309`).
 * Iterative, so depth cannot overflow it.
 */
export function assertSafeJson(root: unknown, where: 'query' | 'body'): void {
  // Paths are built only for the value refused: a node knows its parent and its key.
  const refuse = (node: SafetyNode, message: string): never => {
    const problem: ValidationIssue = { in: where, path: pathOf(node), message }
    throw validationError(listProblems([problem]).issues)
  }
  // Scalars are checked where they stand; only objects and arrays wait on the stack.
  const stack: SafetyNode[] = []
  const visit = (value: unknown, parent: SafetyNode | undefined, key: string | number, depth: number): void => {
    if (typeof value === 'string') {
      if (isUnsafeText(value)) refuse({ value, parent, key, depth }, UNSAFE_TEXT)
    } else if (typeof value === 'number') {
      // `1e309` parses to Infinity, which no schema of `unknown` would catch and JSON cannot carry back
      // out (it becomes null).
      if (!Number.isFinite(value)) refuse({ value, parent, key, depth }, 'Numbers must be finite')
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_BODY_DEPTH)
        refuse({ value, parent, key, depth }, `Nesting deeper than ${MAX_BODY_DEPTH} levels is not allowed`)
      stack.push({ value, parent, key, depth })
    }
  }
  visit(root, undefined, '', 0)
  while (stack.length > 0) {
    const node = stack.pop()!
    const value = node.value as object
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], node, i, node.depth + 1)
      continue
    }
    for (const key of Object.keys(value)) {
      // valibot's `record` silently drops these three keys (its own pollution guard), so accepting
      // them would lose data without a word: refuse them anywhere instead.
      if (FORBIDDEN_KEYS.has(key))
        refuse({ value: key, parent: node, key, depth: node.depth + 1 }, 'This key is not allowed')
      if (isUnsafeText(key)) refuse({ value: key, parent: node, key, depth: node.depth + 1 }, UNSAFE_TEXT)
      visit((value as Record<string, unknown>)[key], node, key, node.depth + 1)
    }
  }
}

const UNSAFE_TEXT = 'Strings must be well-formed Unicode without NUL characters'

interface SafetyNode {
  value: unknown
  parent: SafetyNode | undefined
  key: string | number
  depth: number
}

/** `conditions[0].field` for a node of {@link assertSafeJson}. */
function pathOf(node: SafetyNode): string {
  const keys: Array<string | number> = []
  for (let at: SafetyNode | undefined = node; at?.parent !== undefined; at = at.parent) keys.push(at.key)
  return formatPath(keys.reverse())
}
