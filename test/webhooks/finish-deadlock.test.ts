/**
 * Two dispatcher processes finishing crossed batches at once on one Postgres schema never deadlock
 * (docs/webhooks.md, recording). Each batch clears `failing_since` of one half of the endpoints (a
 * success) and sets it on the other half (a success, then a failure), the two processes with the
 * halves swapped: rows locked in the order the statements happen to run would cross (Postgres then
 * aborts one with "deadlock detected"); `finishWebhookJobs` locks the rows it changes in key order
 * first, so one waits for the other. Likewise an endpoint's deletion (jobs, then its dispatch row,
 * as a finish locks them) beside a finish of its jobs. Bounded loops of real OS processes, stopped
 * at the first error.
 */
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createPostgresStore } from 'tenant-public-api/postgres'
import { afterAll, expect, it } from 'vitest'
import type { FinishedWebhookJob, WebhookJob } from '../../src/ports/webhook-dispatch.js'
import { DATABASE_URL, dropSchemas, freshSchema, postgresServerAnswers } from '../support/postgres.js'
import { forkWorker, type WorkerProcess } from '../support/worker-process.js'

const worker = fileURLToPath(new URL('./finish-worker.ts', import.meta.url))
/** Endpoints per half: enough statements in a batch for two batches to overlap. */
const HALF = 40
const ROUNDS = 12
const TENANT = 'tenant-crossed'
const FAILING_SINCE = '2024-01-01T00:00:00.000Z'

const schemas: string[] = []
afterAll(() => dropSchemas(schemas))

type Answer = { iteration: number; held: number } | { iteration: number; error: string }

const endpointId = (n: number) => `endpoint-${String(n).padStart(3, '0')}`

/** `owner`'s batch in round `round`: a success on each of `clears`, a success then a failure on each of `fails`. */
function batch(owner: string, round: number, clears: number[], fails: number[]): FinishedWebhookJob[] {
  const at = new Date(Date.UTC(2024, 1, 1, 0, round)).toISOString()
  const job = (endpoint: number, n: number): WebhookJob => ({
    tenantId: TENANT,
    id: `${owner}-${round}-${endpoint}-${n}`,
    endpointId: endpointId(endpoint),
    eventId: `evt_${round}`,
    eventPosition: round + 1,
    eventType: 'company.updated',
    attempt: 1,
    nextAttemptAt: 0,
  })
  const attempted = (j: WebhookJob, succeeded: boolean): FinishedWebhookJob => ({
    job: j,
    outcome: {
      kind: 'attempted',
      nextAttemptAt: null,
      delivery: {
        id: crypto.randomUUID(),
        endpointId: j.endpointId,
        eventId: j.eventId,
        eventType: j.eventType,
        attempt: 1,
        status: succeeded ? 'succeeded' : 'failed',
        responseStatus: succeeded ? 204 : 500,
        durationMs: 1,
        error: succeeded ? null : 'hooks.example.com: status 500',
        createdAt: at,
        nextAttemptAt: null,
      },
    },
  })
  return [
    ...clears.map((e) => attempted(job(e, 0), true)),
    ...fails.flatMap((e) => [attempted(job(e, 0), true), attempted(job(e, 1), false)]),
  ]
}

/**
 * Runs `body` with a migrated schema of its own, an admin connection set to it, and two worker
 * processes (owners A and B) on it; stops them and closes the connection however `body` ends.
 */
async function withWorkers(
  name: string,
  body: (admin: pg.Client, workers: WorkerProcess<unknown>[]) => Promise<void>,
): Promise<void> {
  expect(await postgresServerAnswers(), `no Postgres at ${DATABASE_URL}: start one or set DATABASE_URL`).toBe(true)
  const schema = freshSchema(name)
  schemas.push(schema)
  await (await createPostgresStore({ connectionString: DATABASE_URL, schema })).close() // migrates
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`SET search_path TO "${schema}"`)
  const target = { postgres: DATABASE_URL, schema }
  const workers = ['A', 'B'].map((owner) => forkWorker<{ batches: number }>(worker, { target, owner }))
  try {
    await body(admin, workers)
  } finally {
    for (const w of workers) if (w.child.connected) w.child.send('stop')
    await Promise.allSettled(workers.map((w) => w.result))
    await admin.end()
  }
}

/** The next answer of a worker. */
const answer = (w: WorkerProcess<unknown>) => new Promise<Answer>((resolve) => w.child.once('message', resolve))

it('two processes finishing crossed batches in a loop never deadlock', { timeout: 120_000 }, async () => {
  await withWorkers('crossed', async (admin, workers) => {
    await Promise.all(workers.map(answer))
    const low = Array.from({ length: HALF }, (_, n) => n)
    const high = Array.from({ length: HALF }, (_, n) => HALF + n)
    for (const n of [...low, ...high])
      await admin.query('INSERT INTO webhook_dispatch (tenant_id, endpoint_id, position) VALUES ($1, $2, 0)', [
        TENANT,
        endpointId(n),
      ])
    for (let round = 0; round < ROUNDS; round++) {
      // Every endpoint failing, so that a success clears (and locks) its row; the claimed jobs.
      await admin.query('UPDATE webhook_dispatch SET failing_since = $1', [FAILING_SINCE])
      const batches = [batch('A', round, low, high), batch('B', round, high, low)]
      const jobs = batches.flatMap((finished, i) => finished.map(({ job }) => ({ job, owner: 'AB'[i]! })))
      await admin.query(
        `INSERT INTO webhook_jobs (tenant_id, id, endpoint_id, event_id, event_position, event_type, attempt,
           next_attempt_at, lease_owner, lease_until)
         SELECT $1, id, endpoint_id, $2, $3, 'company.updated', 1, 0, owner, $4
         FROM unnest($5::text[], $6::text[], $7::text[]) AS j (id, endpoint_id, owner)`,
        [
          TENANT,
          `evt_${round}`,
          round + 1,
          Date.now() + 60_000,
          jobs.map(({ job }) => job.id),
          jobs.map(({ job }) => job.endpointId),
          jobs.map(({ owner }) => owner),
        ],
      )
      const answers = workers.map(answer)
      for (const [i, w] of workers.entries()) w.child.send({ iteration: round, finished: batches[i] })
      const got = await Promise.all(answers)
      expect(got, `round ${round}`).toEqual([
        { iteration: round, held: 3 * HALF },
        { iteration: round, held: 3 * HALF },
      ])
      // Either order of the two commits is a valid history: each half ends cleared or failing since this round.
      const failedAt = batches[0]![batches[0]!.length - 1]!.outcome
      const since = failedAt.kind === 'attempted' ? failedAt.delivery.createdAt : ''
      const { rows } = await admin.query<{ failing_since: string | null }>('SELECT failing_since FROM webhook_dispatch')
      for (const row of rows) expect([null, since]).toContain(row.failing_since)
    }
    expect((await admin.query('SELECT count(*)::int AS n FROM webhook_jobs')).rows[0].n).toBe(0)
  })
})

it('a process deleting endpoints while another finishes their jobs never deadlocks', { timeout: 120_000 }, async () => {
  await withWorkers('deleted', async (admin, workers) => {
    await Promise.all(workers.map(answer))
    const all = Array.from({ length: 2 * HALF }, (_, n) => n)
    for (let round = 0; round < ROUNDS; round++) {
      // Failing endpoints whose jobs A holds: A's batch clears (and locks) every one of them.
      await admin.query('DELETE FROM webhook_dispatch')
      await admin.query(
        `INSERT INTO webhook_dispatch (tenant_id, endpoint_id, position, failing_since)
         SELECT $1, id, 0, $2 FROM unnest($3::text[]) AS e (id)`,
        [TENANT, FAILING_SINCE, all.map(endpointId)],
      )
      const finished = batch('A', round, all, [])
      await admin.query(
        `INSERT INTO webhook_jobs (tenant_id, id, endpoint_id, event_id, event_position, event_type, attempt,
           next_attempt_at, lease_owner, lease_until)
         SELECT $1, id, endpoint_id, $2, $3, 'company.updated', 1, 0, 'A', $4
         FROM unnest($5::text[], $6::text[]) AS j (id, endpoint_id)`,
        [
          TENANT,
          `evt_${round}`,
          round + 1,
          Date.now() + 60_000,
          finished.map(({ job }) => job.id),
          finished.map(({ job }) => job.endpointId),
        ],
      )
      const answers = workers.map(answer)
      workers[0]!.child.send({ iteration: round, finished })
      // Deleted the other way round from the order A locks in.
      workers[1]!.child.send({ iteration: round, deletes: { tenantId: TENANT, ids: all.map(endpointId).reverse() } })
      const got = await Promise.all(answers)
      expect(
        got.filter((one) => 'error' in one),
        `round ${round}`,
      ).toEqual([])
      expect((await admin.query('SELECT count(*)::int AS n FROM webhook_dispatch')).rows[0].n).toBe(0)
      expect((await admin.query('SELECT count(*)::int AS n FROM webhook_jobs')).rows[0].n).toBe(0)
      // A's attempts, recorded before or while the endpoints were deleted, went with them.
      expect((await admin.query('SELECT count(*)::int AS n FROM webhook_deliveries')).rows[0].n).toBe(0)
    }
  })
})
