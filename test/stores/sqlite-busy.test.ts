/**
 * A SQLite file whose write lock another process holds: writes answer 503 within `busyTimeoutMs`
 * (requests queued behind a timed-out wait too: better-sqlite3 waits synchronously, one statement
 * after another), reads go on (WAL), a short lock is waited out, and everything answers 200 again
 * once the lock is released. Never a hang, never a 500.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPublicApi, StoreUnavailableError, type Store } from 'tenant-public-api'
import { createSqliteStore, sqlRateLimiter } from 'tenant-public-api/sqlite'
import { createHarness, testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'

const BUSY_TIMEOUT_MS = 400
/** Room for a shared, noisy machine on top of the busy timeout. */
const SLACK_MS = 1000

const ruleId = '44444444-4444-4444-8444-444444444444'
const seed = {
  companies: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      name: 'Acme',
      status: 'active',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
  ],
  automationRules: [
    {
      id: ruleId,
      name: 'Rule',
      isActive: true,
      priority: 1,
      scopeType: 'tenant' as const,
      companyIds: [],
      triggerType: 'scheduled' as const,
      entityType: 'ticket' as const,
      triggerConfig: {},
      conditions: [],
      actions: [],
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      version: 1,
    },
  ],
}

const dir = mkdtempSync(join(tmpdir(), 'tenant-api-busy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3')

/**
 * Another process that opens `filename` (in WAL mode, like the store), takes its write lock with
 * `BEGIN IMMEDIATE` and commits after `ms`. Resolves once the lock is taken; `done` when it has exited.
 */
async function holdWriteLock(filename: string, ms: number): Promise<{ done: Promise<void> }> {
  const script = `
    const db = new (require(${JSON.stringify(betterSqlite3)}))(${JSON.stringify(filename)})
    db.pragma('journal_mode = WAL')
    db.exec('BEGIN IMMEDIATE')
    process.stdout.write('locked\\n')
    setTimeout(() => { db.exec('COMMIT'); db.close() }, ${ms})`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code}: ${stderr}`)),
    ),
  )
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve())
    done.then(() => reject(new Error('lock holder exited before locking')), reject)
  })
  return { done }
}

function harness(store: Store, limited: boolean) {
  const errors: unknown[] = []
  const api = createPublicApi({
    store,
    keyResolver: testKeyResolver(),
    ...(limited ? { rateLimiter: sqlRateLimiter(store) } : {}),
    onError: (e) => errors.push(e),
  })
  return { h: createHarness(api, { key: testKey('tenant-b') }), errors }
}

interface Timed {
  status: number
  code: unknown
  ms: number
}

async function timed(call: () => Promise<{ status: number; body?: { code?: unknown } }>): Promise<Timed> {
  const start = performance.now()
  const res = await call()
  return { status: res.status, code: res.body?.code, ms: performance.now() - start }
}

describe('SQLite with the write lock held by another process', () => {
  it('writes answer 503 within busyTimeoutMs, queued ones too; reads go on; 200 once released', {
    timeout: 30_000,
  }, async () => {
    const filename = join(dir, 'held.db')
    const store = await createSqliteStore({ filename, busyTimeoutMs: BUSY_TIMEOUT_MS })
    await store.seed('tenant-b', seed)
    const limited = harness(store, true) // sqlRateLimiter writes on every request
    const plain = harness(store, false)
    const patch = () =>
      plain.h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ruleId}`, {
        body: { description: `at ${performance.now()}` },
      })
    expect((await limited.h.call('GET', '/companies')).status).toBe(200)

    const holder = await holdWriteLock(filename, 3000)
    // Six at once: each statement would wait the whole timeout after the one before it.
    const queued = await Promise.all(
      Array.from({ length: 6 }, () => timed(() => limited.h.call<Reply<'listCompanies'>>('GET', '/companies'))),
    )
    for (const r of queued) {
      expect(r.status).toBe(503)
      expect(r.code).toBe('SERVICE_UNAVAILABLE')
      expect(r.ms).toBeLessThan(BUSY_TIMEOUT_MS + SLACK_MS)
    }
    expect((await plain.h.call('GET', '/companies')).status).toBe(200) // WAL: readers do not wait for a writer
    const write = await timed(patch)
    expect(write.status).toBe(503)
    expect(write.ms).toBeLessThan(BUSY_TIMEOUT_MS + SLACK_MS)

    // A busy timeout later, a statement waits again (the lock may be free by then): still held, so 503.
    await new Promise((r) => setTimeout(r, BUSY_TIMEOUT_MS + 50))
    const again = await timed(() => limited.h.call<Reply<'listCompanies'>>('GET', '/companies'))
    expect(again.status).toBe(503)
    expect(again.ms).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS / 2)
    expect(again.ms).toBeLessThan(BUSY_TIMEOUT_MS + SLACK_MS)

    await holder.done
    expect((await limited.h.call('GET', '/companies')).status).toBe(200)
    expect((await patch()).status).toBe(200)
    expect([...limited.errors, ...plain.errors].every((e) => e instanceof StoreUnavailableError)).toBe(true)
    const slowest = Math.round(Math.max(...queued.map((r) => r.ms)))
    console.log(
      `write lock held: 6 queued requests answered 503 in at most ${slowest} ms (busyTimeoutMs ` +
        `${BUSY_TIMEOUT_MS}); a write ${Math.round(write.ms)} ms; a later wait ${Math.round(again.ms)} ms`,
    )
    await store.close()
  })

  it('a lock held shorter than busyTimeoutMs is waited out: 200, not 503', { timeout: 30_000 }, async () => {
    const filename = join(dir, 'brief.db')
    const store = await createSqliteStore({ filename, busyTimeoutMs: 3000 })
    await store.seed('tenant-b', seed)
    const { h, errors } = harness(store, true)
    await holdWriteLock(filename, 300)
    const res = await timed(() => h.call<Reply<'listCompanies'>>('GET', '/companies'))
    expect(res.status).toBe(200)
    expect(res.ms).toBeGreaterThanOrEqual(100) // it did wait for the lock
    expect(errors).toEqual([])
    await store.close()
  })

  it('creating a store on a file another process is writing: StoreUnavailableError within busyTimeoutMs', {
    timeout: 30_000,
  }, async () => {
    const filename = join(dir, 'new.db')
    const holder = await holdWriteLock(filename, 1500)
    const start = performance.now()
    await expect(createSqliteStore({ filename, busyTimeoutMs: BUSY_TIMEOUT_MS })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    )
    expect(performance.now() - start).toBeLessThan(BUSY_TIMEOUT_MS + SLACK_MS)
    await holder.done
    const store = await createSqliteStore({ filename, busyTimeoutMs: BUSY_TIMEOUT_MS })
    await store.seed('tenant-b', seed)
    expect((await harness(store, true).h.call<Reply<'listCompanies'>>('GET', '/companies')).status).toBe(200)
    await store.close()
  })
})
