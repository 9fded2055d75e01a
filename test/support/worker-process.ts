/** A test's worker script run in its own OS process (real concurrency, real crashes). */
import { type ChildProcess, fork } from 'node:child_process'
import { createPostgresStore } from '../../src/stores/postgres/index.js'
import { createSqliteStore, type SqlStore } from '../../src/stores/sqlite/index.js'

/** A running worker: its process, and the JSON of the last line it printed once it exits with 0. */
export interface WorkerProcess<T> {
  child: ChildProcess
  /** Rejects with the worker's stderr when it exits otherwise (a signal, a non-zero code, a spawn error). */
  result: Promise<T>
}

/**
 * Runs the TypeScript file `script` (through tsx) with `args` as its one JSON argument, with an IPC
 * channel for messages both ways; `nodeOptions` go to node (e.g. `--expose-gc`).
 *
 * @example
 * const { result } = forkWorker<{ statuses: number[] }>(workerPath, { store: 'sqlite' })
 */
export function forkWorker<T>(script: string, args: object, nodeOptions: readonly string[] = []): WorkerProcess<T> {
  const child = fork(script, [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', ...nodeOptions],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const result = new Promise<T>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`worker ${script} exited with ${code ?? signal}: ${err}`))
      resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as T)
    })
  })
  return { child, result }
}

/** Where a worker's store is: a shared SQLite file, or a Postgres schema. */
export type WorkerTarget = { sqlite: string } | { postgres: string; schema: string }

/**
 * The store a worker opens on `target`, without migrating (the test that forked it has).
 * `poolSize` sets the Postgres pool's size (pg's default when absent).
 *
 * @example
 * const store = await openWorkerStore(args.target)
 */
export async function openWorkerStore(target: WorkerTarget, poolSize?: number): Promise<SqlStore> {
  if ('sqlite' in target) return createSqliteStore({ filename: target.sqlite }, { migrate: false })
  const pool = poolSize === undefined ? {} : { max: poolSize }
  return createPostgresStore({ connectionString: target.postgres, schema: target.schema, ...pool }, { migrate: false })
}
