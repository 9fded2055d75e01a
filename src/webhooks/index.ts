/**
 * `tenant-public-api/webhooks`: the webhook dispatcher (docs/webhooks.md), Node only. Run it next
 * to the API, in as many processes as needed, over the API's store.
 */
export { createWebhookDispatcher, type WebhookDispatcher } from './dispatcher.js'
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  FAILING_ENDPOINT_DISABLE_MS,
  type WebhookDispatchCounts,
  type WebhookDispatcherOptions,
  WebhookFeedGapError,
} from './options.js'
export { systemResolver, type WebhookResolver } from './url-safety.js'
