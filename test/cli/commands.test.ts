/**
 * The CLI's commands on a SQLite file, run as a user runs them (the built bin in a child process):
 * the help of each, the version, usage mistakes (exit code 2), keys made, listed and revoked,
 * migrations, and seed files good and bad (a bad one is named, exit code 1, and writes nothing).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { companies, createApiKeys, createPublicApi, listRequest, SCOPES, SEEDED_COLLECTIONS } from 'tenant-public-api'
import { createSqliteStore } from 'tenant-public-api/sqlite'
import { createDemoData, DEMO_TENANT_ID } from 'tenant-public-api/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { printedKey, root, runCli, scratchFolder } from './support.js'

const { dir, remove } = scratchFolder('commands')
afterAll(remove)

const cli = (...args: string[]) => runCli(args, { cwd: dir })
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string
  bin: Record<string, string>
  scripts: Record<string, string>
}

/** What the API on `file` answers a key for `path`, read in this process. */
async function readThroughApi(file: string, key: string, path: string): Promise<{ status: number; body: any }> {
  const store = await createSqliteStore({ filename: join(dir, file) })
  try {
    const api = createPublicApi({ store, keyResolver: createApiKeys(store).keyResolver })
    const response = await api(
      new Request(`http://localhost/api/public/v1${path}`, { headers: { authorization: `Bearer ${key}` } }),
    )
    return { status: response.status, body: await response.json() }
  } finally {
    await store.close()
  }
}

describe('help, version and usage mistakes', () => {
  it('package.json installs the built CLI as tenant-public-api, and npm start is its serve', () => {
    expect(pkg.bin).toEqual({ 'tenant-public-api': './dist/cli.js' })
    expect(pkg.scripts.start).toBe('tsx src/cli/main.ts serve')
    expect(readFileSync(join(root, 'dist/cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
  })

  it('--help at the top lists every command; --version prints the package version', async () => {
    const help = await cli('--help')
    expect(help.code).toBe(0)
    for (const command of ['serve', 'keys create', 'keys list', 'keys revoke', 'migrate', 'seed'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
    const keys = await cli('keys', '--help')
    expect(keys.code).toBe(0)
    expect(keys.stdout).toMatch(/^Usage: tenant-public-api keys <command>/)
    expect(keys.stdout).not.toContain('  serve')
  })

  it('--help (and -h) of each command shows its usage line and every option', async () => {
    const expected: Record<string, string[]> = {
      serve: ['--port N', '--host HOST', '--store STORE'],
      'keys create': ['--store STORE', '--tenant ID', '--scopes a,b', '--name NAME'],
      'keys list': ['--store STORE', '--tenant ID'],
      'keys revoke': ['--store STORE', '--tenant ID'],
      migrate: ['--store STORE'],
      seed: ['--store STORE', '--tenant ID'],
    }
    for (const [command, options] of Object.entries(expected)) {
      for (const flag of ['--help', '-h']) {
        const { code, stdout, stderr } = await cli(...command.split(' '), flag)
        expect({ code, stderr }, command).toEqual({ code: 0, stderr: '' })
        expect(stdout, command).toMatch(new RegExp(`^Usage: tenant-public-api ${command} `))
        for (const option of [...options, '-h, --help']) expect(stdout, `${command} ${option}`).toContain(`  ${option}`)
      }
    }
    expect((await cli('keys', 'revoke', '--help')).stdout).toMatch(/^Usage: .* KEY_ID\n/)
    expect((await cli('seed', '--help')).stdout).toMatch(/^Usage: .* FILE\.json\n/)
    // Every scope a key can hold, from the one table.
    expect((await cli('keys', 'create', '--help')).stdout).toContain(SCOPES.join(', '))
  })

  it('an unknown command, option or argument, or a missing one, is said with exit code 2', async () => {
    const cases: Array<[string[], string]> = [
      [['srve'], 'tenant-public-api: unknown command srve (the commands are serve, keys, migrate, seed;'],
      [['--bogus'], 'tenant-public-api: unknown option --bogus'],
      [['keys', 'make'], 'tenant-public-api: unknown command keys make (the commands are create, list, revoke;'],
      [['serve', '--prot', '1'], 'tenant-public-api serve: unknown option --prot (see tenant-public-api serve --help)'],
      [['serve', '--port'], 'tenant-public-api serve: --port needs a value'],
      [['serve', '--port', 'x'], 'tenant-public-api serve: --port must be 0..65535, not x'],
      [['serve', 'now'], 'tenant-public-api serve: unexpected argument now'],
      [['keys', 'list', '--store', 'sqlite:a.db'], 'tenant-public-api keys list: --tenant is required'],
      [['keys', 'revoke', '--store', 'sqlite:a.db', '--tenant', 't'], 'tenant-public-api keys revoke: missing KEY_ID'],
      [['seed', '--store', 'sqlite:a.db'], 'tenant-public-api seed: missing FILE.json'],
      [['keys', 'list', '--tenant', 't'], 'tenant-public-api keys list: no store: pass --store'],
      [
        ['keys', 'list', '--store', 'mysql://x', '--tenant', 't'],
        'tenant-public-api keys list: --store must be memory,',
      ],
      [['keys', 'list', '--store', 'memory', '--tenant', 't'], 'keys list: needs a store that outlives it'],
      [['migrate', '--store', 'sqlite:'], 'tenant-public-api migrate: --store sqlite: needs a file name'],
    ]
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await cli(...args)
      expect({ code, stdout }, args.join(' ')).toEqual({ code: 2, stdout: '' })
      expect(stderr, args.join(' ')).toContain(message)
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
    // No command at all: the help, on stderr, and exit code 2.
    const none = await cli()
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/^Usage: tenant-public-api <command>/)
    expect(existsSync(join(dir, 'a.db'))).toBe(false)
  })
})

describe('a store that cannot be opened', () => {
  it('is said in one line with exit code 1, naming the store without its password', async () => {
    const postgres = await cli(
      'keys',
      'list',
      '--store',
      'postgres://ada:s3cret@127.0.0.1:1/app?schema=x',
      '--tenant',
      't',
    )
    expect({ code: postgres.code, stdout: postgres.stdout }).toEqual({ code: 1, stdout: '' })
    expect(postgres.stderr).toBe(
      'Cannot open the store Postgres postgres://ada@127.0.0.1:1/app (schema x): The data store is unavailable ' +
        '(connect ECONNREFUSED 127.0.0.1:1)\n',
    )
    writeFileSync(join(dir, 'empty.json'), '{}')
    const sqlite = await cli('seed', '--store', 'sqlite:/dev/null/app.db', 'empty.json')
    expect(sqlite.code).toBe(1)
    expect(sqlite.stderr).toMatch(/^Cannot open the store SQLite file \/dev\/null\/app\.db: E[A-Z]+: .*\n$/)
  })
})

describe('keys on a SQLite file', () => {
  it('create prints the key once, list never prints it, revoke stops it; scopes come from the one table', async () => {
    const store = ['--store', 'sqlite:keys.db', '--tenant', 'acme']
    const created = await cli('keys', 'create', ...store, '--scopes', 'tickets.read,companies.read', '--name', 'PSA')
    expect(created.code, created.stderr).toBe(0)
    const key = printedKey(created.stdout)
    const id = /Created key ([0-9a-f-]{36}) "PSA" for tenant acme on SQLite file /.exec(created.stdout)![1]!
    expect(created.stdout).toContain('Scopes: tickets.read, companies.read')
    expect((await readThroughApi('keys.db', key, '/companies?limit=1')).status).toBe(200)
    // tickets.read and companies.read only: users are out of the key's scopes.
    expect((await readThroughApi('keys.db', key, '/users?limit=1')).status).toBe(403)

    const all = await cli('keys', 'create', ...store)
    expect(all.stdout).toContain(`Scopes: ${SCOPES.join(', ')}`)
    expect(all.stdout).toContain('"tenant-public-api keys create"')

    const listed = await cli('keys', 'list', ...store)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^2 keys of tenant acme on SQLite file /)
    expect(listed.stdout).toContain(`${id}  ${key.slice(0, 12)}…  "PSA"  active`)
    expect(listed.stdout).not.toContain(key)
    expect(listed.stdout).not.toContain(printedKey(all.stdout))
    expect((await cli('keys', 'list', '--store', 'sqlite:keys.db', '--tenant', 'other')).stdout).toMatch(
      /^0 keys of tenant other/,
    )

    // Another tenant's name does not revoke acme's key; then acme's does, at once.
    const wrongTenant = await cli('keys', 'revoke', '--store', 'sqlite:keys.db', '--tenant', 'other', id)
    expect(wrongTenant.code).toBe(1)
    expect(wrongTenant.stderr.trim()).toBe(`Tenant other has no key ${id} (see tenant-public-api keys list)`)
    const revoked = await cli('keys', 'revoke', ...store, id)
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked key ${id} "PSA" of tenant acme at \\d{4}-`))
    expect((await cli('keys', 'list', ...store)).stdout).toMatch(new RegExp(`${id}  \\S+  "PSA"  revoked \\d{4}-`))
    expect((await readThroughApi('keys.db', key, '/companies?limit=1')).status).toBe(401)
  })

  it('an unknown scope is refused with every valid scope listed, before the store is touched', async () => {
    const { code, stderr } = await cli(
      'keys',
      'create',
      ...['--store', 'sqlite:scopes.db', '--tenant', 'acme', '--scopes', 'tickets.read,tickets.raed'],
    )
    expect(code).toBe(2)
    expect(stderr).toContain(`unknown scope tickets.raed; the scopes are ${SCOPES.join(', ')}`)
    expect(existsSync(join(dir, 'scopes.db'))).toBe(false)
  })
})

describe('migrate and seed on a SQLite file', () => {
  it('migrate makes the tables the store factory makes', async () => {
    const migrated = await cli('migrate', '--store', 'sqlite:data/migrated.db')
    expect(migrated.code, migrated.stderr).toBe(0)
    expect(migrated.stdout.trim()).toBe(
      `Migrated SQLite file ${join(dir, 'data/migrated.db')}: its tables are up to date.`,
    )
    const reference = await createSqliteStore({ filename: join(dir, 'reference.db') })
    await reference.close()
    const tables = (file: string) => {
      const db = new Database(join(dir, file), { readonly: true })
      try {
        const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()
        const migrations = db.prepare('SELECT name FROM tenant_api_migrations ORDER BY name').pluck().all()
        return { names, migrations }
      } finally {
        db.close()
      }
    }
    const made = tables('data/migrated.db')
    expect(made.migrations.length).toBeGreaterThan(0)
    expect(made).toEqual(tables('reference.db'))
    // Again: nothing to do, and says so the same way.
    expect((await cli('migrate', '--store', 'sqlite:data/migrated.db')).code).toBe(0)
  })

  it('seed checks the whole file, writes it in batches with progress, and a key reads it through the API', async () => {
    const demo = createDemoData()
    const data = { companies: demo.companies!.slice(0, 3), tickets: demo.tickets.slice(0, 2_500), budgets: [] }
    writeFileSync(join(dir, 'good.json'), JSON.stringify(data))
    const seeded = await cli('seed', '--store', 'sqlite:seeded.db', '--tenant', 'acme', 'good.json')
    expect(seeded.code, seeded.stderr).toBe(0)
    // In the order of the collections, a line per batch of 1,000 records.
    const order = SEEDED_COLLECTIONS.map((spec) => spec.name).filter((name) => name in data)
    const lines = order.flatMap((name) =>
      name === 'tickets'
        ? ['tickets: 1000/2500', 'tickets: 2000/2500', 'tickets: 2500/2500']
        : name === 'companies'
          ? ['companies: 3/3']
          : [`${name}: 0/0`],
    )
    expect(seeded.stdout).toBe(
      `Seeding good.json into tenant acme on SQLite file ${join(dir, 'seeded.db')}\n` +
        lines.map((line) => `  ${line}\n`).join('') +
        'Seeded 2503 records into tenant acme.\n',
    )
    const key = printedKey((await cli('keys', 'create', '--store', 'sqlite:seeded.db', '--tenant', 'acme')).stdout)
    const tickets = await readThroughApi('seeded.db', key, '/tickets?limit=1')
    expect(tickets.status).toBe(200)
    expect(tickets.body.pagination.totalCount).toBe(2_500)
    const listed = await readThroughApi('seeded.db', key, '/companies?sortBy=name')
    expect(listed.body.data.map((c: { id: string }) => c.id).sort()).toEqual(data.companies.map((c) => c.id).sort())

    // Without --tenant: the demo tenant.
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ companies: data.companies.slice(0, 1) }))
    expect((await cli('seed', '--store', 'sqlite:seeded.db', 'one.json')).stdout).toContain(
      `into tenant ${DEMO_TENANT_ID} on`,
    )
  })

  it('a bad record, a misspelt collection or a non-list is named, exit code 1, nothing written', async () => {
    const demo = createDemoData()
    const company = demo.companies![0]!
    const ticket = demo.tickets[0]!
    const bad = {
      'bad-record.json': [
        { companies: [company], tickets: [ticket, { ...ticket, id: 'x', createdAt: 'yesterday' }] },
        /^Invalid seed tickets\[1\]\.createdAt: /,
      ],
      'misspelt.json': [
        { companies: [company], tikets: [ticket] },
        /^Invalid seed: unknown collection "tikets"; the seed keys are tickets, budgets, /,
      ],
      'not-a-list.json': [
        { companies: [company], tickets: {} },
        /^Invalid seed tickets: must be an array of records, not an object$/m,
      ],
    } as const
    await cli('migrate', '--store', 'sqlite:untouched.db')
    for (const [file, [data, message]] of Object.entries(bad)) {
      writeFileSync(join(dir, file), JSON.stringify(data))
      const { code, stdout, stderr } = await cli('seed', '--store', 'sqlite:untouched.db', '--tenant', 'acme', file)
      expect({ code, stdout }, file).toEqual({ code: 1, stdout: '' })
      expect(stderr, file).toMatch(message)
      expect(stderr.trim().split('\n'), file).toHaveLength(1)
    }
    writeFileSync(join(dir, 'broken.json'), '{"companies": [')
    const broken = await cli('seed', '--store', 'sqlite:untouched.db', 'broken.json')
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/^broken\.json is not JSON: /)
    const missing = await cli('seed', '--store', 'sqlite:untouched.db', 'nowhere.json')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^Cannot read nowhere\.json: ENOENT/)

    const store = await createSqliteStore({ filename: join(dir, 'untouched.db') })
    try {
      const page = listRequest(companies, { page: 1, limit: 1, sortBy: 'name' })
      expect((await store.list(companies, 'acme', page)).totalCount).toBe(0)
    } finally {
      await store.close()
    }
  })
})
