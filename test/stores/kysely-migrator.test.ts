/**
 * The one seam that finds Kysely's Migrator (src/stores/sql/migrations/kysely-migrator.ts): in the
 * root module (Kysely 0.28), else in `kysely/migration` (0.29), else a clear error. The packed
 * package meets real releases of both in test/build/peer-matrix.test.ts; here each path on its own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'

const seam = () => import('../../src/stores/sql/migrations/kysely-migrator.js')

afterEach(() => {
  vi.doUnmock('kysely')
  vi.doUnmock('kysely/migration')
  vi.resetModules()
})

describe('kyselyMigrator', () => {
  it("on the installed Kysely (0.29), the Migrator of 'kysely/migration'", async () => {
    const { Migrator } = await import('kysely/migration')
    expect(await (await seam()).kyselyMigrator()).toBe(Migrator)
  })

  it("the root module's Migrator when it has one (Kysely 0.28), without importing the subpath", async () => {
    class RootMigrator {}
    vi.doMock('kysely', () => ({ Migrator: RootMigrator }))
    vi.doMock('kysely/migration', () => {
      throw new Error('0.28 has no kysely/migration')
    })
    expect(await (await seam()).kyselyMigrator()).toBe(RootMigrator)
  })

  it('neither exports one: an error naming the supported releases, with the cause', async () => {
    // An explicit undefined: vitest's mock module throws on a name its factory did not return.
    vi.doMock('kysely', () => ({ Migrator: undefined }))
    vi.doMock('kysely/migration', () => {
      throw new Error('Package subpath ./migration is not defined by "exports"')
    })
    const failure = (await seam()).kyselyMigrator()
    await expect(failure).rejects.toThrow(
      'Kysely exports no Migrator: the SQL stores support Kysely 0.28 (from 0.28.2)',
    )
    // The import's failure is kept as the cause (here as vitest reports a throwing mock factory).
    const error = (await failure.catch((caught: unknown) => caught)) as Error
    expect(error.cause).toBeInstanceOf(Error)
  })
})
