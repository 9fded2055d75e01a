/**
 * The write context an operation hands to the store's writes: the key and request behind the
 * change, recorded in its event (docs/extensions.md, section 3).
 */
import type { OperationContext } from '../http/operation.js'
import type { WriteContext } from '../model/events.js'

/**
 * The write context of a request.
 *
 * @example
 * await store.patch(budgets, tenantId, id, body, now.toISOString(), writeContextOf(context))
 */
export function writeContextOf(
  context: Pick<OperationContext<unknown, unknown, unknown>, 'principal' | 'requestId'>,
): WriteContext {
  const { keyId, actor } = context.principal
  return { actor: { type: 'api_key', keyId, id: actor.id, name: actor.name }, requestId: context.requestId }
}
