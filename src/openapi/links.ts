/** The OpenAPI `links` between operations, from the paths of the registry. */
import type { AnyOperation } from '../http/operation.js'
import { operations } from '../operations/index.js'

const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!)

/**
 * The OpenAPI `links` of a create (a POST answering 201), so that a client can go on from what it
 * created: to every operation on it (a path below the create's whose one new parameter is the
 * answer's `data.id`) and on what it was added to (a path above the create's). Parameters the
 * create's path has are passed on from its request.
 */
export function createLinks(create: AnyOperation): Record<string, object> | undefined {
  if (create.method !== 'POST' || create.successStatus !== 201) return undefined
  const data = (create.response as { entries?: Record<string, { entries?: Record<string, unknown> }> }).entries?.data
  const answersId = data?.entries?.id !== undefined
  const links: Record<string, object> = {}
  for (const target of operations) {
    const below = answersId && target.path.startsWith(`${create.path}/:`)
    const above = create.path.startsWith(`${target.path}/`) && target.path.includes('/:')
    if (!below && !above) continue
    const known = new Set(pathParamNames(create.path))
    const fresh = pathParamNames(target.path).filter((name) => !known.has(name))
    if (fresh.length > (below ? 1 : 0)) continue
    const parameters = Object.fromEntries(
      pathParamNames(target.path).map((name) => [
        name,
        known.has(name) ? `$request.path.${name}` : '$response.body#/data/id',
      ]),
    )
    const what = below ? 'what was created' : 'what it was added to'
    links[target.id] = { operationId: target.id, parameters, description: `${target.summary}: ${what}.` }
  }
  return Object.keys(links).length > 0 ? links : undefined
}
