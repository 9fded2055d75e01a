/**
 * Writes src/client/routes.ts, the typed client's wire facts, from the operation registry. The client
 * reads them at run time, and a browser bundle of the client must carry no server code (the registry
 * imports valibot schemas, handlers and stores), so they are generated into a file that imports
 * nothing but types rather than imported from the registry. `npm run reference` rewrites it with
 * docs/reference.md; test/client/routes.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { takesIfMatch } from '../src/http/operation.js'
import { type AnyOperation, operations } from '../src/index.js'

export const CLIENT_ROUTES_PATH = fileURLToPath(new URL('../src/client/routes.ts', import.meta.url))

/** The top-level entries of a valibot object schema (undefined for any other schema). */
function entriesOf(schema: unknown): Record<string, unknown> | undefined {
  return (schema as { entries?: Record<string, unknown> } | undefined)?.entries
}

/**
 * An operation's client flags, each read from its declaration: a list answers `pagination` with a
 * `page` (walked page by page or by cursor); a feed answers `pagination` without one and takes `after`
 * (the events feed); `idempotent` is declared as such; an operation takes `If-Match` when it can
 * answer 412 `PRECONDITION_FAILED` (`takesIfMatch`, the rule the OpenAPI document applies too).
 */
export function clientFlags(operation: AnyOperation): string[] {
  const pagination = entriesOf(entriesOf(operation.response)?.pagination)
  const flags: string[] = []
  if (pagination !== undefined) {
    if ('page' in pagination) flags.push('list')
    else if (entriesOf(operation.query)?.after !== undefined) flags.push('feed')
    else throw new Error(`${operation.id}: a paginated answer that is neither a list (page) nor a feed (after)`)
  }
  if (operation.idempotent === true) flags.push('idempotent')
  if (takesIfMatch(operation)) flags.push('ifMatch')
  return flags
}

/** The text of src/client/routes.ts. */
export function renderClientRoutes(): string {
  const entries = operations.map((operation) => {
    const fields = [`method: '${operation.method}'`, `path: '${operation.path}'`]
    for (const flag of clientFlags(operation)) fields.push(`${flag}: true`)
    return `  ${operation.id}: { ${fields.join(', ')} },`
  })
  return `/**
 * The wire facts the client needs at run time (method, path, list, idempotency, If-Match), one
 * entry per operation id. Generated from the operation registry by scripts/generate-client-routes.ts
 * (\`npm run reference\`; do not edit by hand): a browser bundle of the client imports this file, which
 * imports only types, and so carries no server code. \`satisfies\` makes the compiler reject a missing
 * or unknown id; test/client/routes.test.ts fails when the file is stale.
 */
import type { HttpMethod } from '../http/operation.js'
import type { OperationId } from '../operations/index.js'

/** How one operation is called. */
export interface ClientRoute {
  method: HttpMethod
  /** Relative to the base path; \`:id\` is the one path parameter. */
  path: string
  /** Answers \`{ data: [...], pagination }\`: the client can walk its pages. */
  list?: true
  /** Answers \`{ data: [...], pagination: { nextCursor } }\` and is walked with \`after\` (the events feed). */
  feed?: true
  /** Accepts \`Idempotency-Key\`: the client sends one, generated unless given. */
  idempotent?: true
  /** Accepts \`If-Match\` with the version the caller read. */
  ifMatch?: true
}

/**
 * Every operation's route, by operation id.
 *
 * @example
 * CLIENT_ROUTES.getTicket // { method: 'GET', path: '/tickets/:id' }
 */
export const CLIENT_ROUTES = {
${entries.join('\n')}
} as const satisfies Record<OperationId, ClientRoute>
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderClientRoutes()
  if (readFileSync(CLIENT_ROUTES_PATH, 'utf8') !== text) writeFileSync(CLIENT_ROUTES_PATH, text)
}
