/**
 * What a bench run leaves outside the repository (exported commits, database files, Postgres schemas,
 * child processes) is removed when its process ends: normally, on an error, or on Ctrl-C / SIGTERM /
 * SIGHUP (the http bench stops each server with SIGTERM). Only SIGKILL leaves something behind.
 *
 * Paths ({@link removeAtExit}) are removed at exit, however the process ends. What takes asynchronous
 * work ({@link atInterrupt}, {@link dropSchemasAtExit}) is done by the run itself when it ends
 * normally or on an error (in a `finally`), and by the signal's listener when a signal stops it: the
 * listener runs those tasks, newest first, for at most 15 s, removes the paths, then lets the signal
 * end the process as it would have. Meanwhile a repeated signal is ignored, and an error of the
 * bench's own work (which may fail as its schema or child goes) is not reported.
 *
 * Work that makes what a task removes (a Postgres store's migrations create its schema, and would
 * commit after the schema's drop) runs {@link uninterrupted}: the listener waits for it first.
 *
 * The listener only runs when the event loop turns, and a bench whose calls all resolve at once (the
 * memory store, SQLite) never lets it: such a bench calls {@link yieldToSignals} between batches
 * (bench/paired.ts does). There, once a signal is stopping the run, the bench's work stops for good,
 * and the listener, which waits up to a second for that, cleans up behind it rather than under it.
 */
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs'
import pg from 'pg'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
/** How long the interrupt tasks may take before the signal ends the process anyway. */
const INTERRUPT_MS = 15_000
/** How long the listener waits for the bench's work to stop at a {@link yieldToSignals}. */
const PARK_MS = 1_000

/** Each path to remove, and whether only when it is an empty directory. */
const paths = new Map<string, boolean>()
const tasks = new Set<() => unknown>()
let hooked = false
let stopping = false
/** Resolved when the bench's work has stopped at a {@link yieldToSignals} after a signal. */
let parked: () => void = () => {}
/** The {@link uninterrupted} work under way (each removed once settled). */
const underway = new Set<Promise<unknown>>()

/** Removes every path registered so far, now (also run at exit). */
export function removeRegistered(): void {
  for (const [path, ifEmpty] of paths) {
    if (!ifEmpty) rmSync(path, { recursive: true, force: true })
    else if (existsSync(path) && readdirSync(path).length === 0) rmdirSync(path)
  }
  paths.clear()
}

function hook(): void {
  if (hooked) return
  hooked = true
  process.once('exit', removeRegistered)
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal))
}

/** The signal's listener: the tasks, the paths, then the signal again with its default action. */
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return
  stopping = true
  const ignore = () => {}
  process.on('uncaughtException', ignore)
  process.on('unhandledRejection', ignore)
  await Promise.all([
    within(PARK_MS, new Promise<void>((resolve) => (parked = resolve))),
    within(INTERRUPT_MS, Promise.all(underway)),
  ])
  const pending = [...tasks].reverse()
  tasks.clear()
  const run = async () => {
    for (const task of pending) {
      try {
        await task()
      } catch (error) {
        console.error(`cleanup after ${signal}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
  await within(INTERRUPT_MS, run())
  removeRegistered()
  for (const name of SIGNALS) process.removeAllListeners(name)
  process.kill(process.pid, signal)
}

/** `work`, or `ms` milliseconds if that is sooner. */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}

/**
 * A turn of the event loop, where a signal's listener can run. Once a signal is stopping the run it
 * never resolves: the bench's work stops there while the listener cleans up.
 *
 * @example
 * for (let round = 0; round < rounds; round++) {
 *   await yieldToSignals()
 *   timeBatch()
 * }
 */
export async function yieldToSignals(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  if (!stopping) return
  parked()
  await new Promise(() => {})
}

/**
 * Runs `start()` to its end even when a signal arrives meanwhile: the signal's listener waits for it
 * (up to 15 s) before its tasks run. Once a signal is stopping the run it starts nothing and never
 * resolves, as {@link yieldToSignals}.
 *
 * @example
 * const store = await uninterrupted(() => createPostgresStore({ connectionString, schema }))
 */
export async function uninterrupted<T>(start: () => Promise<T>): Promise<T> {
  hook()
  if (stopping) await new Promise(() => {})
  const work = start()
  const settled = work.then(
    () => {},
    () => {},
  )
  underway.add(settled)
  void settled.then(() => underway.delete(settled))
  return work
}

/**
 * Removes `path` (a file or a directory, recursively; symbolic links inside are removed, not
 * followed) when this process ends; with `ifEmpty`, a directory only if it is empty by then (paths go
 * in the order they were registered, so its files registered before it go first).
 *
 * @example
 * const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'bench-')))
 */
export function removeAtExit(path: string, { ifEmpty = false } = {}): string {
  hook()
  paths.set(path, ifEmpty)
  return path
}

/**
 * Runs `task` if a signal stops this process, before it ends (see above); returns a function that
 * unregisters it, for when the run has done that work itself or no longer needs it.
 *
 * @example
 * const forget = atInterrupt(() => child.kill('SIGTERM'))
 * try { await exited } finally { forget() }
 */
export function atInterrupt(task: () => unknown): () => void {
  hook()
  tasks.add(task)
  return () => void tasks.delete(task)
}

/**
 * Drops the Postgres `schemas` at `connectionString` (with all they hold) if a signal stops this
 * process, after ending the sessions that hold locks in them (this run's own: a seed's transaction
 * would keep the drop waiting until it ends); returns the drop, which the run calls itself when it
 * ends otherwise (in a `finally`).
 *
 * @example
 * const drop = dropSchemasAtExit(DATABASE_URL, ['bench_events_current', 'bench_events_base'])
 * try {
 *   await bench()
 * } finally {
 *   await drop()
 * }
 */
export function dropSchemasAtExit(connectionString: string, schemas: readonly string[]): () => Promise<void> {
  // One drop at most: a signal during the run's own drop waits for it.
  let dropping: Promise<void> | undefined
  const drop = (endLockHolders: boolean) =>
    (dropping ??= (async () => {
      const client = new pg.Client({ connectionString })
      await client.connect()
      try {
        // Ended rather than cancelled: a session idle in its transaction has no statement to cancel.
        if (endLockHolders)
          await client.query(
            'SELECT pg_terminate_backend(pid) FROM (SELECT DISTINCT l.pid FROM pg_locks l ' +
              'JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace ' +
              'WHERE n.nspname = ANY($1) AND l.pid <> pg_backend_pid()) AS holders',
            [schemas],
          )
        // One statement: all of them go, or none.
        await client.query(`DROP SCHEMA IF EXISTS ${schemas.map((schema) => `"${schema}"`).join(', ')} CASCADE`)
      } finally {
        await client.end()
      }
    })())
  const forget = atInterrupt(() => drop(true))
  return async () => {
    try {
      await drop(false)
    } finally {
      forget()
    }
  }
}
