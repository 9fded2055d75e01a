/**
 * Where the API shows a record, asked of the registry rather than of a table of collections: every
 * read by id (`GET` with `:id`) that answers it, and every paged list whose first page of 100 holds
 * it. Fixture ids are unique across collections (fixture-ids.ts checks it), so a read of another
 * collection never answers one, and a collection's reads are found by asking all of them.
 */
import { expect } from 'vitest'
import type { AnyOperation } from '../../http/operation.js'
import { operations } from '../../operations/index.js'
import type { Harness } from '../harness.js'
import { hasIdParam, isPageList } from './samples.js'

const byId = (operation: AnyOperation) => operation.method === 'GET' && hasIdParam(operation)

/**
 * The ids of the registry's reads that show the record `id`: reads by id answering 200, lists holding it.
 *
 * @example
 * await apiSightings(h, ids.goals[0]) // ['getGoal']
 */
export async function apiSightings(h: Harness, id: string): Promise<string[]> {
  const seen: string[] = []
  for (const operation of operations.filter(byId)) {
    const { status } = await h.call('GET', operation.path.replace(':id', encodeURIComponent(id)))
    expect([200, 404], `GET ${operation.path} for ${id}`).toContain(status)
    if (status === 200) seen.push(operation.id)
  }
  for (const operation of operations.filter(isPageList)) {
    const { status, body } = await h.call<{ data: { id: string }[] }>('GET', `${operation.path}?limit=100`)
    expect(status, `GET ${operation.path}?limit=100`).toBe(200)
    if (body.data.some((record) => record.id === id)) seen.push(operation.id)
  }
  return seen
}
