/**
 * The CLI on Postgres (the run's server, test/support/postgres.ts), each test in a fresh schema
 * named by `?schema=` in the store's URL: migrate, keys create/list/revoke, seed good and bad, and
 * `serve` on Postgres by `--store` and by `DATABASE_URL`, whose curl line reads a page.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { createDemoData } from 'tenant-public-api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASE_URL, dropSchemas, freshSchema, NO_SERVER, postgresServerAnswers } from '../support/postgres.js'
import { getJson, killServers, printedKey, runCli, scratchFolder, startServe, stopWith } from './support.js'

const { dir, remove } = scratchFolder('postgres')
const schemas: string[] = []
afterAll(async () => {
  killServers()
  remove()
  await dropSchemas(schemas)
})

beforeAll(async () => {
  expect(await postgresServerAnswers(), NO_SERVER).toBe(true)
})

/** The store URL of a fresh schema, and its name. */
function freshStore(): { url: string; schema: string } {
  const schema = freshSchema('cli')
  schemas.push(schema)
  const url = new URL(DATABASE_URL)
  url.searchParams.set('schema', schema)
  return { url: url.href, schema }
}

/** The tables of `schema`, by name. */
async function tablesOf(schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    )
    return rows.map((row) => row.name)
  } finally {
    await client.end()
  }
}

const cli = (...args: string[]) => runCli(args, { cwd: dir })

describe('the CLI on Postgres', () => {
  it('migrate creates the schema and its tables, as the store factory does', async () => {
    const { url, schema } = freshStore()
    expect(await tablesOf(schema)).toEqual([])
    const migrated = await cli('migrate', '--store', url)
    expect(migrated.code, migrated.stderr).toBe(0)
    expect(migrated.stdout).toMatch(new RegExp(`^Migrated Postgres postgres://\\S+ \\(schema ${schema}\\): its tables`))
    const other = freshStore()
    // `keys list` opens the store as the factory does (migrating it): the same tables.
    expect((await cli('keys', 'list', '--store', other.url, '--tenant', 't')).code).toBe(0)
    const tables = await tablesOf(schema)
    expect(tables).toContain('api_keys')
    expect(tables).toEqual(await tablesOf(other.schema))
  })

  it('keys create, list and revoke', async () => {
    const { url } = freshStore()
    const store = ['--store', url, '--tenant', 'acme']
    const created = await cli('keys', 'create', ...store, '--scopes', 'tickets.read', '--name', 'Sync')
    expect(created.code, created.stderr).toBe(0)
    const key = printedKey(created.stdout)
    const id = /Created key ([0-9a-f-]{36}) "Sync" for tenant acme on Postgres /.exec(created.stdout)![1]!
    const listed = await cli('keys', 'list', ...store)
    expect(listed.stdout).toMatch(/^1 key of tenant acme on Postgres /)
    expect(listed.stdout).toContain(`${id}  ${key.slice(0, 12)}…  "Sync"  active`)
    expect(listed.stdout).not.toContain(key)
    expect((await cli('keys', 'revoke', ...store, id)).code).toBe(0)
    expect((await cli('keys', 'list', ...store)).stdout).toMatch(/"Sync" {2}revoked \d{4}-/)
  })

  it('seed writes a good file and a bad one nothing; serve serves the seeded tenant to its key', async () => {
    const { url } = freshStore()
    const demo = createDemoData()
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ companies: demo.companies!.slice(0, 2) }))
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ companies: [{ ...demo.companies![2]!, status: 42 }], users: demo.users!.slice(0, 1) }),
    )
    const bad = await cli('seed', '--store', url, '--tenant', 'acme', 'bad.json')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^Invalid seed companies\[0\]\.status: /)
    const good = await cli('seed', '--store', url, '--tenant', 'acme', 'good.json')
    expect(good.code, good.stderr).toBe(0)
    expect(good.stdout).toContain('  companies: 2/2\n')
    const key = printedKey((await cli('keys', 'create', '--store', url, '--tenant', 'acme')).stdout)

    // The store as printed never shows the password (a server that trusts local connections ignores one).
    const withPassword = new URL(url)
    if (withPassword.password === '') withPassword.password = 'shown-nowhere'
    const served = await startServe(['--port', '0', '--store', withPassword.href], { cwd: dir })
    expect(served.banner).toMatch(/\(store: Postgres postgres:\/\/\S+ \(schema cli_\w+\)\)/)
    expect(served.banner).not.toContain(withPassword.password)
    const companies = await getJson(`${served.base}/companies`, key)
    expect(companies.body.data.map((c: { id: string }) => c.id).sort()).toEqual(
      demo
        .companies!.slice(0, 2)
        .map((c) => c.id)
        .sort(),
    )
    expect((await getJson(`${served.base}/users`, key)).body.data).toEqual([])
    expect(await stopWith(served.child)).toBe(0)
  }, 120_000)

  it('serve takes DATABASE_URL when no --store is given; its curl line reads a page', async () => {
    const { url } = freshStore()
    const served = await startServe(['--port', '0'], { cwd: dir, env: { DATABASE_URL: url } })
    expect(served.banner).toContain('(store: Postgres ')
    expect(served.banner).not.toContain('The data stays in')
    const out = execFileSync('bash', ['-c', served.curlLines[0]!], { encoding: 'utf8' })
    expect((JSON.parse(out) as { data: unknown[] }).data).toHaveLength(5)
    expect(await stopWith(served.child)).toBe(0)
  }, 120_000)
})
