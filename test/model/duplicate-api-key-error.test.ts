/**
 * `DuplicateApiKeyError` (docs/api-keys.md) is recognised across copies of the package, as
 * `StoreUnavailableError` is: a store built against one copy throws it, a host holding the other
 * copy's class still knows it. A second copy is the model module loaded again after a reset.
 */
import { describe, expect, it, vi } from 'vitest'
import { DuplicateApiKeyError } from '../../src/model/api-keys.js'

describe('DuplicateApiKeyError', () => {
  it('names the key and is recognised by another copy of its class, and by no other error', async () => {
    vi.resetModules()
    const copy = await import('../../src/model/api-keys.js')
    expect(copy.DuplicateApiKeyError).not.toBe(DuplicateApiKeyError)
    const thrown = new copy.DuplicateApiKeyError('key-1')
    expect(thrown).toBeInstanceOf(DuplicateApiKeyError)
    expect(new DuplicateApiKeyError('key-2')).toBeInstanceOf(copy.DuplicateApiKeyError)
    expect(thrown).toMatchObject({ name: 'DuplicateApiKeyError', id: 'key-1' })
    expect(thrown.message).toContain('key-1')
    expect(new Error('An API key exists')).not.toBeInstanceOf(DuplicateApiKeyError)
    expect(null).not.toBeInstanceOf(DuplicateApiKeyError)
  })
})
