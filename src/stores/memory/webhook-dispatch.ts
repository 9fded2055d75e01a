/**
 * Webhook dispatch in memory (docs/webhooks.md): dispatch rows and jobs of every tenant. One
 * process holds them, so each method is one synchronous step and claims never race; leases still
 * expire as on SQL, so a dispatcher that stops mid-way leaves work another one on the same store
 * takes over.
 */
import type { WebhookDispatchPort, WebhookJob } from '../../ports/webhook-dispatch.js'
import type { WebhookDeliveryRecord } from '../../ports/webhook-store.js'

interface DispatchRow {
  position: number
  failingSince: string | null
  leaseOwner: string | null
  leaseUntil: number
}

interface JobRow extends WebhookJob {
  leaseOwner: string | null
  leaseUntil: number
}

/** What the dispatch methods work on: every tenant's dispatch rows and jobs, and the store beside them. */
interface DispatchTables {
  /** Dispatch rows by tenant, then endpoint id. */
  rows: Map<string, Map<string, DispatchRow>>
  /** Jobs by `tenantId` + NUL + job id ({@link jobKey}). */
  jobs: Map<string, JobRow>
  /** The tenant's feed: where fan-out has to catch up to. */
  lastEventPosition: (tenantId: string) => number
  /** Records an attempt where the API lists deliveries. */
  saveDelivery: (tenantId: string, delivery: WebhookDeliveryRecord) => void
}

const jobKey = (tenantId: string, id: string) => `${tenantId}\u0000${id}`

/** Fan-out over the dispatch rows: claiming endpoints behind their feed, and turning a claim into jobs. */
function fanOutMethods({
  rows,
  jobs,
  lastEventPosition,
}: DispatchTables): Pick<WebhookDispatchPort, 'claimWebhookFanOuts' | 'enqueueWebhookJobs'> {
  return {
    async claimWebhookFanOuts(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const claimed = []
      for (const [tenantId, endpoints] of rows) {
        const last = lastEventPosition(tenantId)
        for (const [endpointId, row] of endpoints) {
          if (claimed.length >= limit) return claimed
          if (row.position >= last || (row.leaseOwner !== null && row.leaseUntil > at)) continue
          row.leaseOwner = owner
          row.leaseUntil = at + leaseMs
          claimed.push({ tenantId, endpointId, position: row.position })
        }
      }
      return claimed
    },

    async enqueueWebhookJobs(claim, owner, newJobs, position) {
      const row = rows.get(claim.tenantId)?.get(claim.endpointId)
      if (row === undefined || row.leaseOwner !== owner || row.position !== claim.position) return false
      for (const job of newJobs) {
        jobs.set(jobKey(claim.tenantId, job.id), {
          ...job,
          tenantId: claim.tenantId,
          endpointId: claim.endpointId,
          attempt: 1,
          leaseOwner: null,
          leaseUntil: 0,
        })
      }
      row.position = position
      row.leaseOwner = null
      row.leaseUntil = 0
      return true
    },
  }
}

/** The jobs: claiming the due ones, and applying how claimed ones ended. */
function jobMethods({
  rows,
  jobs,
  saveDelivery,
}: DispatchTables): Pick<WebhookDispatchPort, 'claimWebhookJobs' | 'finishWebhookJobs'> {
  return {
    async claimWebhookJobs(owner, now, leaseMs, limit) {
      const at = now.getTime()
      const due = [...jobs.values()]
        .filter((job) => job.nextAttemptAt <= at && (job.leaseOwner === null || job.leaseUntil <= at))
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
        .slice(0, limit)
      return due.map((job) => {
        job.leaseOwner = owner
        job.leaseUntil = at + leaseMs
        const { leaseOwner: _owner, leaseUntil: _until, ...claimed } = job
        return claimed
      })
    },

    async finishWebhookJobs(owner, finished) {
      const held = finished.map(({ job, outcome }) => {
        const key = jobKey(job.tenantId, job.id)
        const row = jobs.get(key)
        const dispatch = rows.get(job.tenantId)?.get(job.endpointId)
        if (row === undefined || row.leaseOwner !== owner || row.attempt !== job.attempt || dispatch === undefined)
          return undefined
        if (outcome.kind === 'dropped' || outcome.nextAttemptAt === null) jobs.delete(key)
        else Object.assign(row, { attempt: row.attempt + 1, nextAttemptAt: outcome.nextAttemptAt, leaseOwner: null })
        if (outcome.kind === 'attempted') {
          saveDelivery(job.tenantId, outcome.delivery)
          const succeeded = outcome.delivery.status === 'succeeded'
          dispatch.failingSince = succeeded ? null : (dispatch.failingSince ?? outcome.delivery.createdAt)
        }
        return dispatch
      })
      // failingSince once the whole batch is applied, as the port says.
      return held.map((dispatch) =>
        dispatch === undefined ? { held: false } : { held: true, failingSince: dispatch.failingSince },
      )
    },
  }
}

/**
 * The memory store's dispatch methods over `lastEventPosition` (the tenant's feed) and
 * `saveDelivery` (the attempts the API lists), with the hooks that endpoint creation and deletion call.
 *
 * @example
 * const dispatch = memoryWebhookDispatch((tenantId) => feedOf(tenantId).lastPosition)
 */
export function memoryWebhookDispatch(
  lastEventPosition: (tenantId: string) => number,
  saveDelivery: (tenantId: string, delivery: WebhookDeliveryRecord) => void,
): {
  methods: WebhookDispatchPort
  /** Starts an endpoint's dispatch row at the tenant's last event position. */
  addEndpoint(tenantId: string, endpointId: string): void
  /** Removes an endpoint's dispatch row and jobs. */
  removeEndpoint(tenantId: string, endpointId: string): void
  clear(): void
} {
  const tables: DispatchTables = { rows: new Map(), jobs: new Map(), lastEventPosition, saveDelivery }
  const { rows, jobs } = tables
  return {
    methods: { ...fanOutMethods(tables), ...jobMethods(tables) },
    addEndpoint(tenantId, endpointId) {
      let endpoints = rows.get(tenantId)
      if (endpoints === undefined) rows.set(tenantId, (endpoints = new Map()))
      endpoints.set(endpointId, {
        position: lastEventPosition(tenantId),
        failingSince: null,
        leaseOwner: null,
        leaseUntil: 0,
      })
    },
    removeEndpoint(tenantId, endpointId) {
      rows.get(tenantId)?.delete(endpointId)
      for (const [key, job] of jobs) if (job.tenantId === tenantId && job.endpointId === endpointId) jobs.delete(key)
    },
    clear() {
      rows.clear()
      jobs.clear()
    },
  }
}
