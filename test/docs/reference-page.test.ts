import { createServer, type Server } from 'node:http'
import { mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createOpenApiDocument, createPublicApi, operations } from 'tenant-public-api'
import { testKeyResolver } from 'tenant-public-api/testing'
import { exampleOf } from '../../src/docs/examples.js'
import { escapeHtml } from '../../src/docs/render.js'
import { launchChromium } from '../support/chromium.js'

const BASE = '/api/public/v1'
const api = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver() })

describe('the reference page over the handler', () => {
  it('is served without authentication, self-contained, with a strict CSP', async () => {
    const response = await api(new Request(`http://api.test${BASE}/docs`))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/)
    expect(csp).not.toContain('unsafe')
    const html = await response.text()
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/)
    for (const operation of operations) expect(html).toContain(`id="${operation.id}"`)
  })

  it('is off with docs: false', async () => {
    const off = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver(), docs: false })
    const response = await off(new Request(`http://api.test${BASE}/docs`))
    expect(response.status).toBe(404)
  })

  it('escapes what it interpolates', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;',
    )
  })

  it('shows request examples that the server’s own body schemas accept', () => {
    const document = createOpenApiDocument()
    for (const operation of operations) {
      if (operation.body === undefined) continue
      const path = BASE + operation.path.replace(/:(\w+)/g, '{$1}')
      const spec = (
        document.paths as Record<
          string,
          Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
        >
      )[path]?.[operation.method.toLowerCase()]
      const example = exampleOf(spec?.requestBody.content['application/json']?.schema, document.components.schemas)
      const result = v.safeParse(operation.body, example)
      expect(result.issues?.map((issue) => issue.message) ?? [], operation.id).toEqual([])
    }
  })
})

describe('the reference page in headless Chromium', () => {
  let server: Server
  let browser: Browser | undefined
  let origin: string

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const response = await api(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method }))
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  // The browser is launched here, not in beforeAll: with none usable this test fails, listing every attempt,
  // instead of being reported as skipped. The limit covers the first unpacking of the npm package's browser.
  it('lists every operation of the registry with no console error, filters, and is screenshotted', {
    timeout: 120_000,
  }, async () => {
    const launched = await launchChromium([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ])
    browser = launched.browser
    console.info(`reference page browser test runs on: Chromium ${browser.version()}, ${launched.source}`)
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    const response = await page.goto(`${origin}${BASE}/docs`, { waitUntil: 'load' })
    expect(response?.status()).toBe(200)
    expect(await page.locator('section.op').count()).toBe(operations.length)
    for (const operation of operations) await expect(page.locator(`#${operation.id}`).isVisible()).resolves.toBe(true)
    expect(await page.locator('.area > h2').allTextContents()).toEqual([
      ...new Set(operations.map((operation) => operation.area)),
    ])
    mkdirSync('test-output', { recursive: true })
    await page.screenshot({ path: 'test-output/reference-page.png' })
    await page.screenshot({ path: 'test-output/reference-page-full.png', fullPage: true })

    // The inline script runs under the CSP: filtering hides the other operations.
    await page.fill('#filter', 'line item')
    expect(await page.locator('section.op:not(.hidden)').count()).toBe(1)
    expect(await page.locator('nav .nav-area:not(.hidden) h3').allTextContents()).toEqual(['Budgets'])
    await page.screenshot({ path: 'test-output/reference-page-filtered.png' })
    expect(problems).toEqual([])
    await page.close()
  })
})
