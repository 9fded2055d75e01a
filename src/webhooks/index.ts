/**
 * `tenant-public-api/webhooks`: the webhook dispatcher (docs/webhooks.md), Node only. Run it next
 * to the API, in as many processes as needed, over the API's store.
 */
export {
  createWebhookDispatcher,
  DEFAULT_RETRY_SCHEDULE_MS,
  FAILING_ENDPOINT_DISABLE_MS,
  WebhookFeedGapError,
  type WebhookDispatchCounts,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './dispatcher.js'
export { systemResolver, type WebhookResolver } from './url-safety.js'
