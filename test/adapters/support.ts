/**
 * What every mount test shares: a small seed, a free port, child processes that serve on it, and
 * the scenario of real HTTP requests each mount must pass.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { expect } from 'vitest'
import type { SeedData } from 'tenant-public-api'
import { repositoryBuildConfigs } from '../support/example-apps.js'

export const TENANT = 'tenant-mounts'
export const ENROLLMENT_IDS = [
  '6b1f5a2e-3c4d-4e5f-8a9b-0c1d2e3f4a51',
  '6b1f5a2e-3c4d-4e5f-8a9b-0c1d2e3f4a52',
  '6b1f5a2e-3c4d-4e5f-8a9b-0c1d2e3f4a53',
]

/** Three tickets and three enrollments: enough for a list, a detail and a DELETE. */
export function mountSeed(): SeedData {
  const course = {
    id: '0d5c1d7e-5a51-4a53-9d43-7a1c2b3c4d01',
    title: 'Phishing basics',
    courseType: 'video',
    isMandatory: true,
  }
  return {
    tickets: [1, 2, 3].map((n) => ({
      id: `ticket-${n}`,
      ticketNumber: `T-${1000 + n}`,
      title: `Printer ${n} jammed`,
      status: 'Open',
      isClosed: false,
      priority: 'High',
      provider: 'psa_a' as const,
      createdAt: `2025-01-0${n}T09:00:00.000Z`,
      notes: [],
    })),
    trainingEnrollments: ENROLLMENT_IDS.map((id, i) => ({
      id,
      course: { id: course.id, title: course.title, courseType: course.courseType },
      user: {
        id: `0d5c1d7e-5a51-4a53-9d43-7a1c2b3c4e0${i}`,
        fullName: `Learner ${i}`,
        email: `learner${i}@example.com`,
      },
      status: 'in_progress' as const,
      progress: 50,
      enrolledAt: `2025-02-0${i + 1}T09:00:00.000Z`,
      timeSpentSeconds: 600,
    })),
  }
}

/** A free loopback port (bound once and released, then handed to the server under test). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** A child process serving HTTP, with what it printed (for failure messages). */
export interface ServedProcess {
  child: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/**
 * Starts `command` and waits until `GET readyUrl` answers (any status), failing with the process's
 * output if it exits or does not answer within `timeoutMs`.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; readyUrl: string; timeoutMs?: number },
): Promise<ServedProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let text = ''
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      // The whole group: `npx`/`next start` run the server in a grandchild.
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        child.kill('SIGTERM')
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          child.kill('SIGKILL')
        }
      }
    }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 30_000)
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${command} ${args.join(' ')} exited early:\n${text}`)
    try {
      await fetch(options.readyUrl, { signal: AbortSignal.timeout(2000) })
      return { child, output: () => text, stop }
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`${command} ${args.join(' ')} did not answer on ${options.readyUrl}:\n${text}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
  }
}

/**
 * The demo key an example printed (each makes one with createApiKeys on start), waiting for the line
 * for up to `timeoutMs`: the Next.js example prints it once its route has first loaded.
 */
export async function printedKey(served: ServedProcess, timeoutMs = 30_000): Promise<string> {
  const pattern = /(?:Bearer |demo key \(every scope\): )(tpa_[0-9A-Za-z]{38})\b/i
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = pattern.exec(served.output())?.[1]
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`No demo key printed:\n${served.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Sends headers and part of a declared body, then drops the connection mid-body. */
export function abortMidBody(url: string, token: string): Promise<void> {
  return new Promise((resolve) => {
    const target = new URL(url)
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '100000' },
    })
    req.on('error', () => resolve())
    req.on('close', () => resolve())
    req.write('{"name":"half a rule", "description":"')
    req.flushHeaders()
    setTimeout(() => req.destroy(), 150)
  })
}

/** `fetch`, with the request named in its failure (a reset connection says nothing by itself). */
async function labelled(input: string, init?: RequestInit): Promise<Response> {
  try {
    return await globalThis.fetch(input, init)
  } catch (error) {
    const cause = String((error as { cause?: unknown }).cause)
    throw new Error(`${init?.method ?? 'GET'} ${input} failed: ${(error as Error).message} (${cause})`, {
      cause: error,
    })
  }
}

const ruleBody = {
  name: 'Escalate stale tickets',
  triggerType: 'date_threshold',
  triggerConfig: { days: 3 },
  entityType: 'ticket',
  conditions: [{ logic: 'AND', conditions: [{ field: 'status', operator: 'equals', value: 'Open' }] }],
  actions: [{ actionType: 'notify', config: { to: 'ops' } }],
}

/**
 * The requests every mount must answer correctly over real HTTP: a list, a detail, a POST, a
 * PATCH, a DELETE, a 401, a 413 and a request aborted mid-body (after which the server must still
 * answer). `base` is the API's base URL; `token` a key with every scope of a tenant that has
 * tickets and training enrollments.
 */
export async function runMountScenario(base: string, token: string): Promise<void> {
  const fetch = labelled
  const auth = { authorization: `Bearer ${token}` }
  const json = { ...auth, 'content-type': 'application/json' }

  const list = await fetch(`${base}/tickets?limit=2`, { headers: auth })
  expect(list.status).toBe(200)
  expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(list.headers.get('x-ratelimit-limit')).not.toBeNull()
  const page = (await list.json()) as {
    data: Array<{ id: string; ticketNumber: string }>
    pagination: { limit: number; totalCount: number }
  }
  expect(page.data).toHaveLength(2)
  expect(page.pagination.limit).toBe(2)

  const first = page.data[0]!
  const detail = await fetch(`${base}/tickets/${encodeURIComponent(first.id)}`, {
    headers: { ...auth, 'x-request-id': 'mount-detail-1' },
  })
  expect(detail.status).toBe(200)
  expect(detail.headers.get('x-request-id')).toBe('mount-detail-1')
  expect(((await detail.json()) as { data: { ticketNumber: string } }).data.ticketNumber).toBe(first.ticketNumber)

  const created = await fetch(`${base}/automation`, { method: 'POST', headers: json, body: JSON.stringify(ruleBody) })
  expect(created.status).toBe(201)
  const rule = ((await created.json()) as { data: { id: string; version: number; name: string } }).data
  expect(rule).toMatchObject({ name: ruleBody.name, version: 1 })
  expect(created.headers.get('location')).toMatch(new RegExp(`/automation/${rule.id}$`))

  const patched = await fetch(`${base}/automation/${rule.id}`, {
    method: 'PATCH',
    headers: { ...json, 'if-match': '"1"' },
    body: JSON.stringify({ isActive: true }),
  })
  expect(patched.status).toBe(200)
  expect(((await patched.json()) as { data: { version: number; isActive: boolean } }).data).toMatchObject({
    version: 2,
    isActive: true,
  })
  expect(patched.headers.get('etag')).toBe('"2"')

  const enrollments = await fetch(`${base}/training/enrollments?limit=1`, { headers: auth })
  expect(enrollments.status).toBe(200)
  const enrollment = ((await enrollments.json()) as { data: Array<{ id: string }> }).data[0]!
  const deleted = await fetch(`${base}/training/enrollments/${enrollment.id}`, { method: 'DELETE', headers: auth })
  expect(deleted.status).toBe(200)
  expect(await deleted.json()).toEqual({ message: 'Enrollment deleted' })
  const gone = await fetch(`${base}/training/enrollments/${enrollment.id}`, { method: 'DELETE', headers: auth })
  expect(gone.status).toBe(404)

  const anonymous = await fetch(`${base}/tickets`)
  expect(anonymous.status).toBe(401)
  expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/)
  expect(((await anonymous.json()) as { code: string }).code).toBe('UNAUTHORIZED')

  // Over 1 MiB, declared up front, then streamed without a length: both are 413 in our JSON shape.
  // Just over (16 KiB): a server refuses such a body and closes the connection without reading the
  // rest (write-response.ts), so a client still writing would see EPIPE instead of the answer; what
  // is left unread then fits the loopback socket's buffers, so the client always reads the 413.
  const large = JSON.stringify({ ...ruleBody, description: 'x'.repeat(1024 * 1024 + 16 * 1024) })
  const declared = await fetch(`${base}/automation`, { method: 'POST', headers: json, body: large })
  expect(declared.status).toBe(413)
  expect(((await declared.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
  const bytes = new TextEncoder().encode(large)
  const streamed = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.byteLength; offset += 64 * 1024)
        controller.enqueue(bytes.subarray(offset, offset + 64 * 1024))
      controller.close()
    },
  })
  const chunked = await fetch(`${base}/automation`, {
    method: 'POST',
    headers: json,
    body: streamed,
    duplex: 'half',
  } as RequestInit)
  expect(chunked.status).toBe(413)
  expect(((await chunked.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')

  await abortMidBody(`${base}/automation`, token)
  // `next start` closes a connection left with an unread body without saying so; a pooled socket
  // then resets, and an idempotent GET is retried once, as HTTP clients do. A second failure fails.
  const after = await fetch(`${base}/tickets?limit=1`, { headers: auth }).catch(() =>
    fetch(`${base}/tickets?limit=1`, { headers: auth }),
  )
  expect(after.status).toBe(200)
}

/**
 * Starts `examples/<name>/server.ts` from the repository as its one command runs it (tsx, the package
 * mapped to the run's dist/) on a free port, once it serves `openapi.json`.
 *
 * @example
 * const { base, served } = await startRepositoryExample('express')
 */
export async function startRepositoryExample(name: string): Promise<{ base: string; served: ServedProcess }> {
  const root = new URL('../..', import.meta.url).pathname
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api/public/v1`
  const served = await startProcess(
    `${root}node_modules/.bin/tsx`,
    ['--tsconfig', repositoryBuildConfigs().tsconfig, `examples/${name}/server.ts`],
    { cwd: root, env: { PORT: String(port) }, readyUrl: `${base}/openapi.json` },
  )
  return { base, served }
}
