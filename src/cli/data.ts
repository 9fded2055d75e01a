/**
 * `tenant-public-api migrate` and `seed` (docs/cli.md): a SQL store's migrations, and a tenant's
 * records from a JSON file in the seed format (docs/seed.md). The whole file is validated before
 * anything is written, so a bad record or a misspelt collection key writes nothing; then each
 * collection is seeded in batches, with a line of progress per batch.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { normalizeSeed, SEEDED_COLLECTIONS, type SeedData } from 'tenant-public-api'
import { DEMO_TENANT_ID } from 'tenant-public-api/testing'
import { CliError, type CommandSpec, type ParsedArgs, stringOption } from './args.js'
import { describeStore, openStore, persistentStore, STORE_FORMS } from './stores.js'

/** Records per `store.seed` call: each is one transaction, and one line of progress. */
export const SEED_BATCH = 1_000

const STORE_OPTION = { value: 'STORE', description: `${STORE_FORMS} (default: DATABASE_URL)` }

export const migrateCommand: CommandSpec = {
  name: 'migrate',
  summary: "Brings a SQL store's tables up to date (safe to run again, and from several processes).",
  details: ['The other commands migrate the store they open too; this one does only that, e.g. before a deploy.'],
  options: { store: STORE_OPTION },
}

export const seedCommand: CommandSpec = {
  name: 'seed',
  summary: "Loads a tenant's records from a JSON file in the seed format (docs/seed.md in the package).",
  details: [
    'FILE.json is an object of lists keyed by collection: { "companies": [...], "tickets": [...] }.',
    'The whole file is checked first: a bad record or an unknown key is named and nothing is written',
    `(exit code 1). Records with an id already stored replace it. Written ${SEED_BATCH} records at a time.`,
  ],
  options: {
    store: STORE_OPTION,
    tenant: {
      value: 'ID',
      description: `the tenant the records belong to (default: the demo tenant, ${DEMO_TENANT_ID})`,
    },
  },
  positionals: ['FILE.json'],
}

/** Runs `migrate`. */
export async function migrate(parsed: ParsedArgs): Promise<void> {
  const spec = persistentStore(migrateCommand, stringOption(parsed, 'store'))
  const { store, migrate: run } = await openStore(spec, { migrate: false })
  try {
    await run!()
    console.log(`Migrated ${describeStore(spec)}: its tables are up to date.`)
  } finally {
    await store.close()
  }
}

/** The file's JSON: a {@link CliError} saying why when it cannot be read or parsed. */
function readJson(file: string): unknown {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`)
  }
}

/** Runs `seed`: checks the whole file, then writes each collection in batches of {@link SEED_BATCH}. */
export async function seed(parsed: ParsedArgs): Promise<void> {
  const file = parsed.positionals[0]!
  const tenantId = stringOption(parsed, 'tenant') ?? DEMO_TENANT_ID
  const spec = persistentStore(seedCommand, stringOption(parsed, 'store'))
  const data = readJson(file) as SeedData
  // Throws the TypeError naming the first bad key or record before the store is even opened.
  normalizeSeed(data)
  const lists = data as Record<string, readonly unknown[] | undefined>
  const { store } = await openStore(spec)
  try {
    console.log(`Seeding ${file} into tenant ${tenantId} on ${describeStore(spec)}`)
    let total = 0
    for (const { name } of SEEDED_COLLECTIONS) {
      const records = lists[name]
      if (records === undefined) continue
      if (records.length === 0) console.log(`  ${name}: 0/0`)
      for (let done = 0; done < records.length; ) {
        const batch = records.slice(done, done + SEED_BATCH)
        await store.seed(tenantId, { [name]: batch } as SeedData)
        done += batch.length
        console.log(`  ${name}: ${done}/${records.length}`)
      }
      total += records.length
    }
    console.log(`Seeded ${total} record${total === 1 ? '' : 's'} into tenant ${tenantId}.`)
  } finally {
    await store.close()
  }
}
