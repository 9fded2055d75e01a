/**
 * Store level, webhook dispatch (docs/webhooks.md): what a custom store must do for several
 * dispatchers to share its work. A new endpoint starts at its tenant's last event; fan-out claims
 * and job claims are exclusive until their lease passes, then another owner takes them over; a
 * write under a lost claim changes nothing; finishing records the attempt, reschedules or deletes
 * the job and keeps `failingSince`; deleting an endpoint removes its work; tenants stay apart.
 * Claims read across tenants, so each test looks only at its own tenants' rows.
 */
import { describe, expect, it } from 'vitest'
import type { ConformanceContext } from './context.js'
import { ALL, attempt, dispatchKit, LEASE, newJob } from './store-webhook-dispatch-kit.js'
import { numberedCompany as company } from './webhook-fixtures.js'

/**
 * Registers the store-level webhook dispatch tests.
 *
 * @example
 * storeWebhookDispatch(ctx)
 */
export function storeWebhookDispatch(ctx: ConformanceContext): void {
  describe('store: webhook dispatch', () => {
    fanOutClaims(ctx)

    jobClaimsAndFinishes(ctx)

    batchFinishes(ctx)

    endpointRemovalAndTenants(ctx)
  })
}

/** Registers the tests of dropped jobs, deleted endpoints, and two tenants’ dispatch kept apart. */
function endpointRemovalAndTenants(ctx: ConformanceContext): void {
  const { store, owner, fanOuts, jobs, finish, tenantWithEndpoint, withJobs } = dispatchKit(ctx)
  it('a dropped job is deleted without a record', async () => {
    const now = Date.now()
    const t = await withJobs([1], now)
    const who = owner('w')
    const [job] = await jobs(who, new Date(now), [t.tenantId])
    expect(await finish(job!, who, { kind: 'dropped' })).toEqual({ held: true, failingSince: null })
    expect(await jobs(owner('x'), new Date(now + 2 * LEASE), [t.tenantId])).toEqual([])
    expect(await store().listWebhookDeliveries(t.tenantId, t.endpointId, 10)).toEqual([])
  })

  it('deleteWebhookEndpoint removes its dispatch row and jobs: no claim, no finish', async () => {
    const now = Date.now()
    const t = await withJobs([1, 2], now)
    const who = owner('w')
    const [job] = await store()
      .claimWebhookJobs(who, new Date(now), LEASE, ALL)
      .then((all) => all.filter((j) => j.tenantId === t.tenantId))
    expect(await store().deleteWebhookEndpoint(t.tenantId, t.endpointId)).toBe(true)
    await store().seed(t.tenantId, { companies: [company(9)] })
    expect(await fanOuts(owner('x'), new Date(now), [t.tenantId]), 'claimWebhookFanOuts').toEqual([])
    expect(await jobs(owner('x'), new Date(now + 2 * LEASE), [t.tenantId]), 'claimWebhookJobs').toEqual([])
    const late = attempt(job!, 'succeeded', new Date(now))
    expect(await finish(job!, who, { kind: 'attempted', delivery: late, nextAttemptAt: null })).toEqual({
      held: false,
    })
    expect(await store().listWebhookDeliveries(t.tenantId, t.endpointId, 10)).toEqual([])
  })

  it('tenants stay apart: one endpoint id in two tenants has its own position, jobs, failingSince', async () => {
    const id = crypto.randomUUID()
    const now = Date.now()
    const a = await withJobs([1], now, id)
    const b = await tenantWithEndpoint(0, 2, id)
    const fan = owner('fan')
    expect(await fanOuts(fan, new Date(now), [a.tenantId, b.tenantId]), 'only B is behind').toEqual([
      { ...b, position: 0 },
    ])
    expect(await store().enqueueWebhookJobs({ ...a, position: 0 }, fan, [newJob(2, now)], 2), "A's row").toBe(false)
    const who = owner('w')
    const claimed = await jobs(who, new Date(now), [a.tenantId, b.tenantId])
    expect(claimed.map((j) => j.tenantId)).toEqual([a.tenantId])
    const failed = attempt(claimed[0]!, 'failed', new Date(now))
    await finish(claimed[0]!, who, { kind: 'attempted', delivery: failed, nextAttemptAt: null })
    expect(await store().listWebhookDeliveries(b.tenantId, id, 10), "B's deliveries").toEqual([])
    expect(await store().enqueueWebhookJobs({ ...b, position: 0 }, fan, [], 2)).toBe(true)
    await store().seed(b.tenantId, { companies: [company(3)] })
    const [claimB] = await fanOuts(fan, new Date(now), [b.tenantId])
    expect(await store().enqueueWebhookJobs(claimB!, fan, [newJob(3, now)], 3)).toBe(true)
    const [jobB] = await jobs(who, new Date(now), [b.tenantId])
    const ok = attempt(jobB!, 'succeeded', new Date(now))
    expect(await finish(jobB!, who, { kind: 'attempted', delivery: ok, nextAttemptAt: null })).toEqual({
      held: true,
      failingSince: null,
    })
  })
}

/** Registers the test of finishing a batch of jobs in order, one lost claim skipping only itself. */
function batchFinishes(ctx: ConformanceContext): void {
  const { store, owner, jobs, withJobs } = dispatchKit(ctx)
  it('finishWebhookJobs applies a batch in order, per job; a lost claim skips only itself', async () => {
    const now = Date.now()
    // `lost`, claimed first, is taken over after its lease (at `now`) while the batch's others are held.
    const v = await withJobs([1], now - LEASE)
    const t = await withJobs([1, 2, 3, 4], now - 1)
    const u = await withJobs([1], now - 1)
    const who = owner('batch')
    const [lost] = await jobs(who, new Date(now - LEASE), [v.tenantId])
    const claimed = await jobs(who, new Date(now - 1), [t.tenantId, u.tenantId])
    const [ok, failed, retried, dropped] = claimed
      .filter((j) => j.tenantId === t.tenantId)
      .sort((a, b) => a.eventPosition - b.eventPosition)
    const [other] = claimed.filter((j) => j.tenantId === u.tenantId)
    const taken = await jobs(owner('taker'), new Date(now), [v.tenantId, t.tenantId, u.tenantId])
    expect(
      taken.map((j) => j.id),
      'only the lost job is taken over',
    ).toEqual([lost!.id])
    const success = attempt(ok!, 'succeeded', new Date(now))
    const failure = attempt(failed!, 'failed', new Date(now + 1))
    const retry = attempt(retried!, 'pending', new Date(now + 2))
    const late = attempt(lost!, 'succeeded', new Date(now + 3))
    const otherSuccess = attempt(other!, 'succeeded', new Date(now + 4))
    const results = await store().finishWebhookJobs(who, [
      { job: ok!, outcome: { kind: 'attempted', delivery: success, nextAttemptAt: null } },
      { job: failed!, outcome: { kind: 'attempted', delivery: failure, nextAttemptAt: null } },
      { job: lost!, outcome: { kind: 'attempted', delivery: late, nextAttemptAt: null } },
      { job: retried!, outcome: { kind: 'attempted', delivery: retry, nextAttemptAt: now + 5_000 } },
      { job: dropped!, outcome: { kind: 'dropped' } },
      { job: other!, outcome: { kind: 'attempted', delivery: otherSuccess, nextAttemptAt: null } },
    ])
    // failingSince is the endpoint's after the whole batch: set by the first failure after the success.
    const since = { held: true, failingSince: failure.createdAt }
    expect(results, 'finishWebhookJobs results, in order').toEqual([
      since,
      since,
      { held: false },
      since,
      since,
      { held: true, failingSince: null },
    ])
    const listed = await store().listWebhookDeliveries(t.tenantId, t.endpointId, 10)
    expect(listed.map((d) => d.id).sort(), 'recorded: the held attempts only').toEqual(
      [success.id, failure.id, retry.id].sort(),
    )
    expect(await store().listWebhookDeliveries(u.tenantId, u.endpointId, 10)).toEqual([otherSuccess])
    expect(await store().listWebhookDeliveries(v.tenantId, v.endpointId, 10), 'the lost one').toEqual([])
    const [again] = await jobs(owner('next'), new Date(now + 5_000), [t.tenantId])
    expect(again, 'the retried job, due again').toMatchObject({ id: retried!.id, attempt: 2 })
    expect(await store().finishWebhookJobs(who, []), 'an empty batch').toEqual([])
    const next = attempt(again!, 'succeeded', new Date(now + 5_000))
    const [cleared] = await store().finishWebhookJobs(owner('next-finish'), [
      { job: again!, outcome: { kind: 'attempted', delivery: next, nextAttemptAt: null } },
    ])
    expect(cleared, 'not held by that owner').toEqual({ held: false })
  })
}

/** Registers the tests of job claims, their leases, and finishing one job. */
function jobClaimsAndFinishes(ctx: ConformanceContext): void {
  const { store, owner, jobs, finish, withJobs } = dispatchKit(ctx)
  it('claimWebhookJobs: due jobs, earliest first, at most `limit`, exclusive until the lease passes', async () => {
    // Epoch times far in the past: no other test's job is due this early.
    const t = await withJobs([1], 3_000)
    const u = await withJobs([1, 2], 1_000)
    const mine = [t.tenantId, u.tenantId]
    const first = await store().claimWebhookJobs(owner('a'), new Date(2_500), LEASE, 1)
    expect(
      first.map((j) => [j.tenantId, j.nextAttemptAt]),
      'claimWebhookJobs(limit 1)',
    ).toEqual([[u.tenantId, 1_000]])
    const rest = await jobs(owner('b'), new Date(2_500), mine)
    expect(
      rest.map((j) => [j.tenantId, j.eventPosition]),
      'due and not leased',
    ).toEqual([[u.tenantId, 2]])
    expect(await jobs(owner('c'), new Date(2_999), mine), 'leased, or not due').toEqual([])
    const d = owner('d')
    const retaken = await jobs(d, new Date(2_500 + LEASE), mine)
    expect(retaken.map((j) => j.eventPosition).sort(), 'leases passed: all three').toEqual([1, 1, 2])
    for (const job of retaken) await finish(job, d, { kind: 'dropped' })
  })

  it('concurrent job claims never return the same job', async () => {
    const now = Date.now()
    const t = await withJobs([1, 2, 3, 4, 5, 6], now)
    const who = [1, 2, 3].map((n) => owner(`w${n}`))
    const claims = await Promise.all(who.map((w) => store().claimWebhookJobs(w, new Date(now), LEASE, 2)))
    const mine = claims.flat().filter((j) => j.tenantId === t.tenantId)
    expect(new Set(mine.map((j) => j.id)).size, 'no job twice').toBe(mine.length)
    const left = await jobs(owner('rest'), new Date(now), [t.tenantId])
    expect(mine.length + left.length).toBe(6)
  })

  it('finishWebhookJobs records the attempt, reschedules (attempt + 1) or deletes, keeps failingSince', async () => {
    const now = Date.now()
    const t = await withJobs([1], now)
    const who = owner('w')
    const [job] = await jobs(who, new Date(now), [t.tenantId])
    const first = attempt(job!, 'pending', new Date(now))
    const failed = await finish(job!, who, {
      kind: 'attempted',
      delivery: first,
      nextAttemptAt: now + 5_000,
    })
    expect(failed, 'finishWebhookJobs of a failed attempt').toEqual({ held: true, failingSince: first.createdAt })
    expect(await finish(job!, who, { kind: 'dropped' }), 'the same attempt again').toEqual({
      held: false,
    })
    expect(await jobs(owner('early'), new Date(now + 4_999), [t.tenantId]), 'not due yet').toEqual([])
    const [again] = await jobs(who, new Date(now + 5_000), [t.tenantId])
    expect(again, 'due again').toMatchObject({ id: job!.id, attempt: 2, nextAttemptAt: now + 5_000 })
    const second = attempt(again!, 'pending', new Date(now + 5_000))
    const kept = await finish(again!, who, {
      kind: 'attempted',
      delivery: second,
      nextAttemptAt: now + 9_000,
    })
    expect(kept, 'failingSince stays at the first failure').toEqual({ held: true, failingSince: first.createdAt })
    const [third] = await jobs(who, new Date(now + 9_000), [t.tenantId])
    const success = attempt(third!, 'succeeded', new Date(now + 9_000))
    const cleared = await finish(third!, who, {
      kind: 'attempted',
      delivery: success,
      nextAttemptAt: null,
    })
    expect(cleared, 'a success clears failingSince').toEqual({ held: true, failingSince: null })
    expect(await jobs(owner('after'), new Date(now + 60 * LEASE), [t.tenantId]), 'deleted once finished').toEqual([])
    const listed = await store().listWebhookDeliveries(t.tenantId, t.endpointId, 10)
    expect(listed, 'listWebhookDeliveries').toEqual([success, second, first])
  })

  it('a job taken over after its lease: the first owner can no longer finish it', async () => {
    const now = Date.now()
    const t = await withJobs([1], now)
    const [slow, fast] = [owner('slow'), owner('fast')]
    const [job] = await jobs(slow, new Date(now), [t.tenantId])
    const [taken] = await jobs(fast, new Date(now + LEASE), [t.tenantId])
    expect(taken?.id).toBe(job!.id)
    const late = attempt(job!, 'succeeded', new Date(now + LEASE + 1))
    const lost = await finish(job!, slow, {
      kind: 'attempted',
      delivery: late,
      nextAttemptAt: null,
    })
    expect(lost, 'finishWebhookJobs by the owner that lost it').toEqual({ held: false })
    expect(await store().listWebhookDeliveries(t.tenantId, t.endpointId, 10), 'nothing recorded').toEqual([])
    const done = attempt(taken!, 'succeeded', new Date(now + LEASE + 2))
    expect(await finish(taken!, fast, { kind: 'attempted', delivery: done, nextAttemptAt: null })).toEqual({
      held: true,
      failingSince: null,
    })
  })
}

/** Registers the tests of new endpoints’ start, fan-out claims and enqueueing jobs. */
function fanOutClaims(ctx: ConformanceContext): void {
  const { store, owner, fanOuts, jobs, tenantWithEndpoint } = dispatchKit(ctx)
  it('a new endpoint starts at the last event: only later events make it claimable', async () => {
    const t = await tenantWithEndpoint(3, 0)
    const now = new Date()
    expect(await fanOuts(owner('a'), now, [t.tenantId]), 'claimWebhookFanOuts with no later event').toEqual([])
    await store().seed(t.tenantId, { companies: [company(4)] })
    expect(await fanOuts(owner('a'), now, [t.tenantId]), 'claimWebhookFanOuts after one more event').toEqual([
      { ...t, position: 3 },
    ])
  })

  it('a fan-out claim is exclusive until its lease passes; then another owner takes it over', async () => {
    const t = await tenantWithEndpoint(0, 2)
    const now = Date.now()
    const [first, second] = [owner('first'), owner('second')]
    expect(await fanOuts(first, new Date(now), [t.tenantId])).toEqual([{ ...t, position: 0 }])
    expect(await fanOuts(second, new Date(now + LEASE - 1), [t.tenantId]), 'while leased').toEqual([])
    expect(await fanOuts(second, new Date(now + LEASE), [t.tenantId]), 'lease passed').toEqual([{ ...t, position: 0 }])
    const lost = await store().enqueueWebhookJobs({ ...t, position: 0 }, first, [newJob(1, now)], 2)
    expect(lost, 'enqueueWebhookJobs under a claim taken over').toBe(false)
    expect(await jobs(owner('x'), new Date(now + 1), [t.tenantId]), 'nothing was enqueued').toEqual([])
  })

  it('concurrent fan-out claims never return the same endpoint', async () => {
    const tenants = await Promise.all([1, 2, 3, 4].map(() => tenantWithEndpoint(0, 1)))
    const ids = tenants.map((t) => t.tenantId)
    const now = new Date()
    const claims = await Promise.all([1, 2, 3].map((n) => fanOuts(owner(`c${n}`), now, ids)))
    const all = claims.flat().map((c) => c.endpointId)
    expect(new Set(all).size, 'no endpoint twice').toBe(all.length)
    expect(all.sort()).toEqual(tenants.map((t) => t.endpointId).sort())
  })

  it('enqueueWebhookJobs adds the jobs, moves the position and frees the claim, once', async () => {
    const t = await tenantWithEndpoint(1, 3)
    const who = owner('holder')
    const now = Date.now()
    const [claim] = await fanOuts(who, new Date(now), [t.tenantId])
    expect(claim).toEqual({ ...t, position: 1 })
    const added = [newJob(2, now), newJob(4, now)]
    expect(await store().enqueueWebhookJobs(claim!, who, added, 4), 'enqueueWebhookJobs').toBe(true)
    expect(await store().enqueueWebhookJobs(claim!, who, [newJob(3, now)], 4), 'the same claim again').toBe(false)
    expect(await fanOuts(owner('other'), new Date(now), [t.tenantId]), 'caught up: nothing to claim').toEqual([])
    const claimed = await jobs(owner('worker'), new Date(now), [t.tenantId])
    expect(
      claimed
        .map(({ tenantId, endpointId, id, eventId, eventPosition, eventType, attempt }) => ({
          tenantId,
          endpointId,
          id,
          eventId,
          eventPosition,
          eventType,
          attempt,
        }))
        .sort((a, b) => a.eventPosition - b.eventPosition),
    ).toEqual(
      added.map((job) => ({
        tenantId: t.tenantId,
        endpointId: t.endpointId,
        id: job.id,
        eventId: job.eventId,
        eventPosition: job.eventPosition,
        eventType: job.eventType,
        attempt: 1,
      })),
    )
    for (const job of claimed) expect(job.nextAttemptAt).toBe(now)
    await store().seed(t.tenantId, { companies: [company(5)] })
    expect(await fanOuts(owner('later'), new Date(now), [t.tenantId]), 'a later event').toEqual([{ ...t, position: 4 }])
  })
}
