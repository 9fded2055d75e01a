/**
 * The API reference page: one self-contained HTML document (inline CSS and JS, no network) rendered
 * on the server from the OpenAPI document, grouped by area. Everything interpolated is escaped;
 * the Content-Security-Policy allows exactly the page's own style and script by hash.
 */
import { exampleOf } from './examples.js'

type SchemaObject = Record<string, unknown>
interface ParameterObject {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: SchemaObject
}
interface OperationObject {
  operationId: string
  tags?: string[]
  summary?: string
  description?: string
  'x-required-scope'?: string
  parameters?: ParameterObject[]
  requestBody?: { content: Record<string, { schema: SchemaObject }> }
  responses: Record<string, { description?: string; content?: Record<string, { schema: SchemaObject }> }>
}
/** The parts of an OpenAPI 3.1 document the page reads. */
export interface ReferenceDocument {
  info: { title: string; version: string; description?: string }
  tags?: Array<{ name: string }>
  paths: Record<string, Record<string, OperationObject>>
  components: { schemas: Record<string, unknown> }
}

/** The rendered page and the Content-Security-Policy that lets exactly it run. */
export interface ReferencePage {
  html: string
  contentSecurityPolicy: string
}

const STYLE = `
:root{--bg:#f7f8fa;--card:#fff;--ink:#1d2433;--muted:#5b6478;--line:#e3e6ec;--accent:#3451b2;--code:#0f172a;
--get:#1f7a4d;--post:#2456c7;--patch:#a15c00;--delete:#b42318}
*{box-sizing:border-box}html{scroll-behavior:smooth}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{position:sticky;top:0;z-index:2;display:flex;gap:16px;align-items:center;padding:12px 24px;
background:#111827;color:#fff}
header h1{font-size:17px;margin:0;font-weight:600}header .version{color:#9ca3af;font-size:13px}
header input{margin-left:auto;width:280px;padding:7px 10px;border-radius:6px;border:1px solid #374151;
background:#1f2937;color:#fff}
header a{color:#c7d2fe;font-size:13px}
.layout{display:grid;grid-template-columns:250px 1fr;gap:24px;max-width:1280px;margin:0 auto;padding:24px}
nav{position:sticky;top:76px;align-self:start;max-height:calc(100vh - 96px);overflow:auto;font-size:13px}
nav h3{margin:14px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
nav a{display:flex;gap:6px;align-items:center;padding:3px 6px;border-radius:4px;color:var(--ink);text-decoration:none}
nav a:hover{background:#e8ebf3}
.intro{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin-bottom:20px}
.area>h2{font-size:20px;margin:28px 0 12px}
.op{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin-bottom:16px}
.op-head{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.op-head code.path{font-size:15px;font-weight:600;color:var(--code);background:none}
.method{display:inline-block;min-width:58px;text-align:center;font:700 11px/1 ui-monospace,monospace;padding:5px 6px;
border-radius:4px;color:#fff}
.m-get{background:var(--get)}.m-post{background:var(--post)}.m-patch{background:var(--patch)}
.m-delete{background:var(--delete)}
nav .method{min-width:44px;font-size:9px;padding:3px 4px}
.scope{margin-left:auto;font-size:12px;color:var(--accent);background:#eef1fb;border-radius:999px;padding:3px 10px}
.summary{margin:8px 0 0;font-weight:600}.desc{color:var(--muted);margin:4px 0 0}
h4{margin:16px 0 6px;font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
table{width:100%;border-collapse:collapse;font-size:13px}
th,td{text-align:left;padding:6px 8px;border-top:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f7;border-radius:4px;padding:1px 4px}
.req{color:var(--delete);font-size:11px}
.examples{display:grid;grid-template-columns:1fr 1fr;gap:12px}
pre{margin:0;max-height:320px;overflow:auto;background:#0f172a;color:#e2e8f0;border-radius:8px;padding:12px;
font:12px/1.5 ui-monospace,monospace}
.errors td:first-child{width:70px;font-weight:600}
.hidden{display:none}
@media (max-width:900px){.layout{grid-template-columns:1fr}nav{display:none}.examples{grid-template-columns:1fr}}
`

const SCRIPT = `
(function(){var input=document.getElementById('filter');if(!input)return;
input.addEventListener('input',function(){var q=input.value.trim().toLowerCase();
document.querySelectorAll('.op').forEach(function(op){
op.classList.toggle('hidden',q!==''&&op.getAttribute('data-search').indexOf(q)<0)});
document.querySelectorAll('.area').forEach(function(area){
area.classList.toggle('hidden',area.querySelectorAll('.op:not(.hidden)').length===0)});
document.querySelectorAll('nav a[data-op]').forEach(function(a){
var op=document.getElementById(a.getAttribute('data-op'));
a.classList.toggle('hidden',!!op&&op.classList.contains('hidden'))});
document.querySelectorAll('nav .nav-area').forEach(function(group){
group.classList.toggle('hidden',group.querySelectorAll('a:not(.hidden)').length===0)});});})();
`

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * escapeHtml('<b>"x"</b>') // '&lt;b&gt;&quot;x&quot;&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Escaped text with `backticks` as <code>. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function resolve(schema: SchemaObject | undefined, components: Record<string, unknown>): SchemaObject {
  let current = schema ?? {}
  for (let i = 0; i < 5 && typeof current.$ref === 'string'; i++)
    current = (components[current.$ref.split('/').pop() ?? ''] ?? {}) as SchemaObject
  return current
}

function typeOf(schema: SchemaObject, components: Record<string, unknown>): string {
  const s = resolve(schema, components)
  const variants = (s.anyOf ?? s.oneOf) as SchemaObject[] | undefined
  // Variants without a type of their own only narrow the schema's type (`events`: `["*"]` or types).
  const typed = Array.isArray(variants) && (s.type === undefined || variants.every((variant) => 'type' in variant))
  if (typed) return variants.map((variant) => typeOf(variant, components)).join(' | ')
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object'
  const type = String(s.type ?? 'any')
  if (type === 'array') return `${typeOf((s.items ?? {}) as SchemaObject, components)}[]`
  return typeof s.format === 'string' ? `${type} (${s.format})` : type
}

/** Limits of a schema as text: enum, range, length, pattern, default. */
function limits(schema: SchemaObject | undefined, components: Record<string, unknown>): string {
  const s = resolve(schema, components)
  const inner = (Array.isArray(s.anyOf) ? (s.anyOf as SchemaObject[]).find((v) => v.type !== 'null') : undefined) ?? s
  const parts: string[] = []
  if (Array.isArray(inner.enum))
    parts.push(`one of ${inner.enum.map((value) => `<code>${escapeHtml(String(value))}</code>`).join(', ')}`)
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number' && max < Number.MAX_SAFE_INTEGER)
      parts.push(`${min}..${max}${unit}`)
    else if (typeof min === 'number' && (min > 0 || unit === '')) parts.push(`≥ ${min}${unit}`)
    else if (typeof max === 'number') parts.push(`≤ ${max}${unit}`)
  }
  range(inner.minimum, inner.maximum, '')
  range(inner.minLength, inner.maxLength, ' chars')
  range(inner.minItems, inner.maxItems, ' items')
  // The patterns every request string has (no NUL, no lone surrogate) sit in `allOf` and are said
  // once, in the document's description; a pattern of the string's own is its `pattern`.
  if (typeof inner.pattern === 'string') parts.push(`pattern <code>${escapeHtml(inner.pattern)}</code>`)
  const fallback = s.default ?? inner.default
  if (fallback !== undefined) parts.push(`default <code>${escapeHtml(JSON.stringify(fallback))}</code>`)
  if (Array.isArray(s.anyOf) && (s.anyOf as SchemaObject[]).some((v) => v.type === 'null'))
    parts.push('<code>null</code> clears')
  return parts.join('; ')
}

function json(value: unknown): string {
  return escapeHtml(JSON.stringify(value, null, 2))
}

const REQUIRED = ' <span class="req">required</span>'

/** The coloured method label, as in the operation's head and the navigation. */
function methodBadge(method: string): string {
  return `<span class="method m-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span>`
}

/** A titled table, or nothing when it has no rows. */
function table(title: string, headings: string[], rows: string): string {
  if (!rows) return ''
  return `<h4>${title}</h4><table><tr>${headings.map((heading) => `<th>${heading}</th>`).join('')}</tr>${rows}</table>`
}

function renderOperation(
  method: string,
  path: string,
  op: OperationObject,
  components: Record<string, unknown>,
): string {
  const params = op.parameters ?? []
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? REQUIRED : ''}</td><td>${escapeHtml(p.in)}</td>` +
        `<td>${escapeHtml(typeOf(p.schema ?? {}, components))}</td><td>${limits(p.schema, components)}` +
        `${p.description ? `<div class="desc">${prose(p.description)}</div>` : ''}</td></tr>`,
    )
    .join('')
  const bodySchema = op.requestBody?.content['application/json']?.schema
  const body = resolve(bodySchema, components)
  const required = new Set((body.required as string[] | undefined) ?? [])
  const bodyRows = Object.entries((body.properties ?? {}) as Record<string, SchemaObject>)
    .map(
      ([name, schema]) =>
        `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? REQUIRED : ''}</td>` +
        `<td>${escapeHtml(typeOf(schema, components))}</td><td>${limits(schema, components)}</td></tr>`,
    )
    .join('')
  const [successStatus, success] = Object.entries(op.responses).find(([status]) => status.startsWith('2')) ?? [
    '200',
    undefined,
  ]
  const responseSchema = success?.content?.['application/json']?.schema
  const errors = Object.entries(op.responses)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, response]) => {
      const schema = response.content?.['application/json']?.schema as
        | { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> }
        | undefined
      const codes = schema?.allOf?.[1]?.properties?.code?.enum ?? []
      const cells = codes.map((code) => `<code>${escapeHtml(code)}</code>`).join(' ')
      return `<tr><td>${escapeHtml(status)}</td><td>${cells}</td></tr>`
    })
    .join('')
  const search = [
    op.operationId,
    method,
    path,
    op.summary ?? '',
    op.tags?.join(' ') ?? '',
    op['x-required-scope'] ?? '',
  ]
    .join(' ')
    .toLowerCase()
  const scope = op['x-required-scope']
  const head =
    `${methodBadge(method)}<code class="path">${escapeHtml(path)}</code>` +
    (scope ? `<span class="scope">scope: ${escapeHtml(scope)}</span>` : '')
  const requestExample = bodySchema
    ? `<div><h4>Request example</h4><pre>${json(exampleOf(bodySchema, components))}</pre></div>`
    : ''
  const responseExample =
    `<div><h4>Response ${escapeHtml(successStatus)} example</h4>` +
    `<pre>${json(exampleOf(responseSchema, components))}</pre></div>`
  return `<section class="op" id="${escapeHtml(op.operationId)}" data-search="${escapeHtml(search)}">
<div class="op-head">${head}</div>
<p class="summary">${prose(op.summary ?? op.operationId)} <code>${escapeHtml(op.operationId)}</code></p>
${op.description ? `<p class="desc">${prose(op.description)}</p>` : ''}
${table('Parameters', ['Name', 'In', 'Type', 'Limits'], paramRows)}
${table('Request body', ['Field', 'Type', 'Limits'], bodyRows)}
<div class="examples">${requestExample}${responseExample}</div>
<h4>Errors</h4><table class="errors">${errors}</table>
</section>`
}

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  let binary = ''
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Renders the reference page from an OpenAPI document.
 *
 * @example
 * const { html, contentSecurityPolicy } = await renderReferencePage(createOpenApiDocument(), {
 *   openApiUrl: 'openapi.json',
 * })
 */
export async function renderReferencePage(
  document: ReferenceDocument,
  options: { openApiUrl?: string } = {},
): Promise<ReferencePage> {
  const components = document.components.schemas
  const byArea = new Map<string, string[]>()
  const navByArea = new Map<string, string[]>()
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op['x-required-scope']) continue // meta routes (this page, the document) are not operations
      const area = op.tags?.[0] ?? 'Other'
      byArea.set(area, [...(byArea.get(area) ?? []), renderOperation(method, path, op, components)])
      const id = escapeHtml(op.operationId)
      navByArea.set(area, [
        ...(navByArea.get(area) ?? []),
        `<a href="#${id}" data-op="${id}">${methodBadge(method)}${escapeHtml(op.summary ?? op.operationId)}</a>`,
      ])
    }
  }
  const areas = [...byArea.keys()]
  const nav = areas
    .map((area) => `<div class="nav-area"><h3>${escapeHtml(area)}</h3>${(navByArea.get(area) ?? []).join('')}</div>`)
    .join('')
  const sections = areas
    .map((area) => `<section class="area"><h2>${escapeHtml(area)}</h2>${(byArea.get(area) ?? []).join('')}</section>`)
    .join('')
  const openApiUrl = options.openApiUrl ?? 'openapi.json'
  const title = escapeHtml(document.info.title)
  const header =
    `<header><h1>${title}</h1><span class="version">v${escapeHtml(document.info.version)}</span>` +
    `<a href="${escapeHtml(openApiUrl)}">openapi.json</a>` +
    '<input id="filter" type="search" placeholder="Filter operations…" aria-label="Filter operations"></header>'
  const intro =
    (document.info.description ? `<p>${prose(document.info.description)}</p>` : '') +
    '<p>Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>; each operation needs the scope ' +
    'shown. Every response carries <code>X-Request-Id</code>; errors have the shape ' +
    '<code>{ error, code, requestId, details }</code>.</p>'
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — reference</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body>${header}
<div class="layout"><nav>${nav}</nav><main>
<div class="intro">${intro}</div>
${sections}</main></div><script>${SCRIPT}</script></body></html>`
  const [styleHash, scriptHash] = await Promise.all([sha256Base64(STYLE), sha256Base64(SCRIPT)])
  const contentSecurityPolicy = [
    "default-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    `script-src 'sha256-${scriptHash}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  return { html, contentSecurityPolicy }
}
