/**
 * A throwaway read-only collection, `assets` (a list with a filter and two sorts, a get, events), as
 * the files a new collection is made of today: what new-collection.test.ts writes into a scratch copy
 * of src/. Each entry is a file the collection names; the test counts them. ARCHITECTURE.md ("How to
 * add a resource") is the recipe these follow.
 */

/** A change to a file of the copy: a new file's text, or an edit of an existing one. */
export interface ScratchChange {
  /** The path under the copy's root, e.g. `src/model/assets.ts`. */
  readonly path: string
  /** The new file's text, or the edit of the existing text (which must change it). */
  readonly write: string | ((text: string) => string)
}

/** Replaces `anchor` in `text` by `anchor` followed (or preceded) by `added`; throws when it is missing. */
function insert(text: string, anchor: string, added: string, where: 'after' | 'before' = 'after'): string {
  if (!text.includes(anchor)) throw new Error(`anchor not found: ${anchor}`)
  return text.replace(anchor, where === 'after' ? `${anchor}${added}` : `${added}${anchor}`)
}

const MODEL = `/** Assets: a throwaway read-only collection (test/architecture/new-collection.test.ts). */
import * as v from 'valibot'
import { column, defineCollection } from './collection.js'
import { filter, listQuerySchema } from './list-surface.js'
import { seedSchemaOf } from './seed-schema.js'
import { DateTimeSchema, uuidParam } from './shared.js'

/**
 * An asset.
 *
 * @example
 * v.is(AssetSchema, value)
 */
export const AssetSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  companyId: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
})
export type Asset = v.InferOutput<typeof AssetSchema>

/**
 * The assets collection.
 *
 * @example
 * assets.table // 'assets'
 */
export const assets = defineCollection<Asset>()({
  name: 'assets',
  table: 'assets',
  event: { resource: 'asset', readScope: 'companies.read' },
  seed: seedSchemaOf(AssetSchema),
  columns: [
    column('name', 'text', { field: 'name' }),
    column('created_at', 'text', { field: 'createdAt' }),
    column('company_id', 'text', { field: 'companyId', nullable: true }),
  ],
  list: {
    sorts: { name: 'name', created_at: 'createdAt' },
    defaultSort: { by: 'name', descending: false },
    direction: 'sortOrder',
    params: { companyId: filter(uuidParam('Only assets of this company.'), 'company_id', 'equals') },
  },
  indexes: [['tenant_id', 'company_id']],
})

/**
 * The query parameters of the list (derived from its surface).
 *
 * @example
 * v.parse(AssetListQuerySchema, { sortBy: 'created_at' })
 */
export const AssetListQuerySchema = listQuerySchema(assets)
export type AssetListQuery = v.InferOutput<typeof AssetListQuerySchema>
`

const OPERATIONS = `import { AssetSchema, assets } from '../model/assets.js'
import { readList, readOne } from './reads.js'
import { UuidIdParams } from './results.js'

export const listAssets = readList(assets, {
  id: 'listAssets',
  path: '/assets',
  area: 'Companies',
  summary: 'List assets',
  scope: 'companies.read',
  item: AssetSchema,
})

export const getAsset = readOne(assets, {
  id: 'getAsset',
  path: '/assets/:id',
  area: 'Companies',
  summary: 'Get an asset',
  scope: 'companies.read',
  params: UuidIdParams,
  item: AssetSchema,
  what: 'Asset',
})
`

/** The migration (its number given), written out as the frozen ones are. */
const migration = (number: string) => `/** Migration ${number}: the assets table (a throwaway collection of a test). */
import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.js'
import type { TableNamer } from './0001-initial.js'

export const assetsMigration = {
  name: '${number}_assets',
  async up(db: Kysely<unknown>, context: { engine: EngineName; table: TableNamer }): Promise<void> {
    const text = context.engine === 'postgres' ? 'text COLLATE "C"' : 'TEXT'
    const table = context.table('assets')
    const statements = [
      \`CREATE TABLE IF NOT EXISTS \${table} ("tenant_id" \${text} NOT NULL, "id" \${text} NOT NULL, \` +
        \`"name" \${text} NOT NULL, "created_at" \${text} NOT NULL, "company_id" \${text}, "doc" \${text} NOT NULL, \` +
        'PRIMARY KEY ("tenant_id", "id"))',
      \`CREATE INDEX IF NOT EXISTS "assets_name" ON \${table} ("tenant_id", "name", "id")\`,
      \`CREATE INDEX IF NOT EXISTS "assets_name_desc" ON \${table} ("tenant_id", "name" DESC, "id")\`,
      \`CREATE INDEX IF NOT EXISTS "assets_created_at" ON \${table} ("tenant_id", "created_at", "id")\`,
      \`CREATE INDEX IF NOT EXISTS "assets_created_at_desc" ON \${table} ("tenant_id", "created_at" DESC, "id")\`,
      \`CREATE INDEX IF NOT EXISTS "assets_company_id" ON \${table} ("tenant_id", "company_id")\`,
    ]
    for (const statement of statements) await sql.raw(statement).execute(db)
  },
}
`

const FIXTURE = `/** The assets of a fixture tenant: ties on name in all but case, one of no company. */
import { AssetSchema } from '../../model/assets.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, fixtureIdRange, nameSuffix, type SeedList, shuffled } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kind of {@link fixtureIdRange} of assets. */
const ASSET = 0x30

/** Assets: [name, company index | null, createdAt]. */
const ASSET_ROWS: Array<[string, number | null, string]> = [
  ['Laptop', 0, at(3)],
  ['laptop', 1, at(2)],
  ['Router', null, at(2)],
]

/**
 * The assets of a fixture tenant, in id order.
 *
 * @example
 * assetSeeds('a', fixtureIds('a'))[2]?.companyId // null
 */
export function assetSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'assets'> {
  return ASSET_ROWS.map(([name, company, createdAt], i) => ({
    id: ids.assets[i]!,
    name: \`\${name}\${nameSuffix(tenant)}\`,
    companyId: company === null ? null : ids.companies[company]!,
    createdAt,
    updatedAt: createdAt,
  }))
}

/**
 * The assets' fixture.
 *
 * @example
 * assetFixture.ids('a').assets.length // 3
 */
export const assetFixture = defineFixture<'assets'>()({
  ids: (tenant) => ({ assets: fixtureIdRange(tenant, ASSET, ASSET_ROWS.length) }),
  seed: (tenant, ids) => shuffled(assetSeeds(tenant, ids)),
  writable: false,
  record: AssetSchema,
})
`

/**
 * Every change that adds `assets`, given the next migration's number (`0007`) and the file it goes in.
 *
 * @example
 * assetChanges('0007').map((change) => change.path)
 */
export function assetChanges(number: string): ScratchChange[] {
  const migrationFile = `src/stores/sql/migrations/${number}-assets.ts`
  return [
    { path: 'src/model/assets.ts', write: MODEL },
    {
      path: 'src/model/index.ts',
      write: (text) =>
        insert(
          insert(
            text,
            "import { automationRules } from './automation-rules.js'",
            "\nimport { assets } from './assets.js'",
          ),
          '  plannerItemTypes,\n',
          '  assets,\n',
        ),
    },
    { path: 'src/operations/assets.ts', write: OPERATIONS },
    {
      path: 'src/operations/index.ts',
      write: (text) =>
        insert(
          insert(
            text,
            "import type { AnyOperation, OperationReads } from '../http/operation.js'",
            "\nimport { getAsset, listAssets } from './assets.js'",
          ),
          '  getPlannerItemType,\n',
          '  listAssets,\n  getAsset,\n',
        ),
    },
    { path: migrationFile, write: migration(number) },
    {
      path: 'src/stores/sql/migrations/index.ts',
      write: (text) =>
        insert(
          insert(text, 'import { initial }', `import { assetsMigration } from './${number}-assets.js'\n`, 'before'),
          /const MIGRATIONS: readonly CodeMigration\[\] = \[[^\]]*/.exec(text)![0],
          '  assetsMigration,\n',
        ),
    },
    { path: 'src/testing/conformance/fixture-assets.ts', write: FIXTURE },
    {
      path: 'src/testing/conformance/fixtures.ts',
      write: (text) =>
        insert(
          insert(
            text,
            "import type { Fixture } from './fixture.js'",
            "\nimport { assetFixture } from './fixture-assets.js'",
          ),
          '  plannerItemTypes: plannerItemTypeFixture,\n',
          '  assets: assetFixture,\n',
        ),
    },
    // The demo tenant has every collection (DemoData): none of this one.
    {
      path: 'src/demo/demo-data.ts',
      write: (text) => insert(text, '    plannerItemTypes,\n  }\n}', '    assets: [],\n', 'before'),
    },
  ]
}
