/**
 * The OpenAPI 3.1 document, generated from the operation registry and the valibot schemas: the
 * same objects that validate requests describe them, so the document cannot drift from the code.
 */
import type { AnyOperation } from '../http/operation.js'
import { checkOptions, is, type OptionChecks } from '../model/options.js'
import { operations } from '../operations/index.js'
import { HEADER, REQUEST_ID } from './headers.js'
import { operationParameters } from './parameters.js'
import { errorSchema, operationResponses } from './responses.js'
import { componentSchemas, jsonSchema } from './schemas.js'

function pathTemplate(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}')
}

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  /** The base path the API is mounted at. Default `/api/public/v1`. */
  basePath?: string
}

const CHECKS: OptionChecks<OpenApiOptions> = { basePath: is.string }

/** The Operation Object of an operation of the registry. */
function operationObject(operation: AnyOperation): object {
  return {
    operationId: operation.id,
    tags: [operation.area],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: [{ bearerAuth: [operation.scope] }],
    'x-required-scope': operation.scope,
    parameters: operationParameters(operation),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
          },
        }
      : {}),
    responses: operationResponses(operation),
  }
}

/** The Path Item of `GET {basePath}/openapi.json`, which serves this document. */
function documentPathItem() {
  return {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['Meta'],
      summary: 'This document',
      security: [],
      parameters: [
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The `ETag` of a copy the client has: a 304 without a body when it is current.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document.',
          headers: {
            'X-Request-Id': REQUEST_ID,
            ETag: HEADER('A strong entity tag of the document (its SHA-256).', { type: 'string' }, true),
          },
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '304': {
          description: 'Not modified: `If-None-Match` names the current `ETag`. No body.',
          headers: {
            'X-Request-Id': REQUEST_ID,
            ETag: HEADER('The entity tag the client sent, still current.', { type: 'string' }, true),
          },
        },
        // The cookie check comes before routing (docs/api-behaviour.md), so even this public route can refuse one.
        '400': {
          description: 'Error: COOKIES_NOT_ALLOWED.',
          headers: { 'X-Request-Id': REQUEST_ID },
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/Error' },
                  { properties: { code: { enum: ['COOKIES_NOT_ALLOWED'] } } },
                ],
              },
            },
          },
        },
      },
    },
  }
}

/**
 * The OpenAPI 3.1 document of the API: every operation with its parameters, body, success and
 * error responses, scope and headers. Served at `GET {basePath}/openapi.json`.
 *
 * @example
 * const doc = createOpenApiDocument()
 * Object.keys(doc.paths) // ['/api/public/v1/tickets', ...]
 */
export function createOpenApiDocument(options: OpenApiOptions = {}) {
  checkOptions(options, CHECKS, { name: 'createOpenApiDocument' })
  const basePath = options.basePath ?? '/api/public/v1'
  const paths: Record<string, Record<string, object>> = {}
  for (const operation of operations) {
    ;(paths[basePath + pathTemplate(operation.path)] ??= {})[operation.method.toLowerCase()] =
      operationObject(operation)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant Data Public API',
      version: '1.0.0',
      description:
        'Programmatic, stateless read and write access to the data of one tenant of the IT-management portal. ' +
        'No string of a request may hold NUL or an unpaired surrogate (two patterns in the `allOf` of each say ' +
        'so), and no object of a request may have the key `__proto__`, `constructor` or `prototype`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: [...new Set(operations.map((operation) => operation.area))].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths: {
      ...paths,
      [`${basePath}/openapi.json`]: documentPathItem(),
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key with scopes, created in the tenant dashboard.',
        },
      },
      schemas: { ...componentSchemas(), Error: errorSchema() },
    },
  }
}
