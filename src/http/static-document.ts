/**
 * Documents the API serves as they are, unauthenticated (`openapi.json`, the docs page): their text
 * and a strong `ETag` are computed once per handler, and a client that has them gets a 304 without
 * a body (docs/api-behaviour.md#requests-and-responses).
 */
import { reply, type ReplyParts } from './reply.js'

/** A document's text and its strong entity tag. */
export interface StaticDocument {
  text: string
  etag: string
}

/**
 * The document's text with a strong `ETag`: the SHA-256 of its UTF-8 bytes (Web Crypto, so on
 * every runtime), base64url, quoted.
 *
 * @example
 * const document = await staticDocument(JSON.stringify(createOpenApiDocument()))
 */
export async function staticDocument(text: string): Promise<StaticDocument> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  let binary = ''
  for (const byte of digest) binary += String.fromCharCode(byte)
  const tag = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
  return { text, etag: `"${tag}"` }
}

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 13.1.2: `*` or any listed tag, compared weakly,
 * so `W/"x"` matches `"x"`).
 */
function noneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false
  for (const item of header.split(',')) {
    const tag = item.trim()
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true
  }
  return false
}

/**
 * The document as a reply: 200 with its text and `ETag`, or 304 with no body (and the same
 * `ETag` and `Cache-Control`) when the request's `If-None-Match` names it.
 *
 * @example
 * return serveStatic(request, document, { 'content-type': 'application/json; charset=utf-8' })
 */
export function serveStatic(
  request: Request,
  document: StaticDocument,
  headers: Readonly<Record<string, string>>,
): ReplyParts {
  if (noneMatch(request.headers.get('if-none-match'), document.etag)) {
    const kept: Record<string, string> = { etag: document.etag }
    if (headers['cache-control'] !== undefined) kept['cache-control'] = headers['cache-control']
    return reply(304, null, kept)
  }
  return reply(200, document.text, { ...headers, etag: document.etag })
}
