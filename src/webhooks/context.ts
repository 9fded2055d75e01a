/**
 * The state a dispatcher's parts share, passed to each explicitly: its settings, who it is to the
 * store, its kept connections, the endpoints read this pass, its recorder and whether it is stopping.
 */
import { hostname } from 'node:os'
import type { WebhookEndpointRecord } from '../model/webhook-endpoints.js'
import { type DispatchSettings, resolveOptions, type WebhookDispatcherOptions } from './options.js'
import { createAttemptRecorder, type RecordAttempt } from './recorder.js'
import { createWebhookConnectionPool, type WebhookConnectionPool } from './url-safety.js'

/** One dispatcher's shared state (see the module comment). */
export interface DispatchContext extends DispatchSettings {
  /** Who holds this dispatcher's claims in the store: host, process and a random id. */
  readonly owner: string
  /**
   * Kept-alive connections per checked address (docs/webhooks.md): closed by stop(); idle ones
   * also close after a few seconds, and never keep the process alive.
   */
  readonly pool: WebhookConnectionPool
  /**
   * Endpoints read for delivery, by tenant and id, with when (performance.now()): a pass reuses one
   * for ENDPOINT_CACHE_MS (batches.ts) rather than reading it per claimed batch; every pass starts empty.
   */
  readonly endpointCache: Map<string, { endpoint: WebhookEndpointRecord | null; readAt: number }>
  readonly record: RecordAttempt
  /** Set by stop(): no new claims, and fan-out stops between its claims. */
  stopping: boolean
}

/** Checks `options` and builds the state of a new dispatcher over them. */
export function createDispatchContext(options: WebhookDispatcherOptions): DispatchContext {
  const settings = resolveOptions(options)
  const owner = `${hostname()}:${process.pid}:${crypto.randomUUID()}`
  return {
    ...settings,
    owner,
    pool: createWebhookConnectionPool({ socketsPerAgent: settings.concurrency }),
    endpointCache: new Map(),
    record: createAttemptRecorder(settings.store, owner),
    stopping: false,
  }
}
