/**
 * Checkpoints SQLite files in the background, on a worker thread with its own connections.
 *
 * In WAL mode a commit appends pages to the log, and now and then a write copies the log back into
 * the database file (a checkpoint): that write syncs the log and the file, and waits for the disk,
 * the larger part of a write with its event (bench/README.md#measurements-behind-the-code). Here a
 * worker thread runs a PASSIVE checkpoint of each registered file every {@link CHECKPOINT_EVERY_MS}:
 * it waits for no reader or writer and none waits for it, so the disk waits leave the requests' path.
 * Writers still checkpoint on their own past {@link FALLBACK_CHECKPOINT_PAGES} of log, which bounds
 * the log if the worker falls behind or cannot run.
 *
 * One worker serves every store of the process (a store adds its file, `close()` removes it); it
 * is unreferenced, so it never keeps a process alive. better-sqlite3 runs in worker threads, and
 * connections of one process share SQLite's locks (one copy of the library), so the worker's
 * connection is an ordinary second connection to the file.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the worker checkpoints each file. */
export const CHECKPOINT_EVERY_MS = 200

/** The log size (pages) at which a write checkpoints on its own while the checkpointer runs: 64 MiB of 4 KiB pages. */
export const FALLBACK_CHECKPOINT_PAGES = 16_000

// The worker, as CommonJS source (an eval worker): a file of its own would have to be found beside
// the ESM and CJS builds and the sources alike. It loads the driver the store resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const files = new Map()
let timer = null
function checkpoint() {
  for (const entry of files.values()) {
    try { entry.db.pragma('wal_checkpoint(PASSIVE)') } catch {}
  }
}
parentPort.on('message', (message) => {
  if (message.add !== undefined) {
    const entry = files.get(message.add)
    if (entry !== undefined) entry.refs++
    else {
      try { files.set(message.add, { db: new Database(message.add, { fileMustExist: true }), refs: 1 }) } catch {}
    }
  } else {
    const entry = files.get(message.remove)
    if (entry !== undefined && --entry.refs === 0) {
      files.delete(message.remove)
      try { entry.db.close() } catch {}
    }
  }
  if (files.size > 0 && timer === null) timer = setInterval(checkpoint, workerData.everyMs)
  if (files.size === 0 && timer !== null) { clearInterval(timer); timer = null }
  parentPort.postMessage(message.id)
})
`

/** A file registered with the checkpointer. */
export interface CheckpointedFile {
  /** Stops checkpointing the file; the worker has closed its connection when this resolves. */
  stop(): Promise<void>
}

let worker: Worker | undefined
/** Workers that have exited: a message to one would never be answered. */
const exited = new WeakSet<Worker>()
let registered = 0
let nextId = 0
const pending = new Map<number, () => void>()

/** Sends `message` to the worker; resolves once the worker has handled it (or has gone). */
function send(current: Worker, message: { add: string } | { remove: string }): Promise<void> {
  if (exited.has(current)) return Promise.resolve()
  const id = nextId++
  return new Promise((resolve) => {
    // Referenced while an answer is awaited, so that the process does not exit under a `close()`.
    if (pending.size === 0) current.ref()
    pending.set(id, resolve)
    current.postMessage({ ...message, id })
  })
}

/** The worker, started if none runs; undefined when it cannot start (no resolvable driver, no worker threads). */
function currentWorker(): Worker | undefined {
  if (worker !== undefined) return worker
  try {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, everyMs: CHECKPOINT_EVERY_MS } })
    started.on('message', (id: number) => {
      pending.get(id)?.()
      pending.delete(id)
      if (pending.size === 0) started.unref()
    })
    const gone = () => {
      exited.add(started)
      if (worker === started) worker = undefined
      for (const resolve of pending.values()) resolve()
      pending.clear()
    }
    // A failed worker leaves the writers' own checkpoints (FALLBACK_CHECKPOINT_PAGES): nothing is lost.
    started.on('error', gone)
    started.on('exit', gone)
    started.unref() // after the listeners: adding a 'message' listener refs the worker again
    worker = started
    return started
  } catch {
    return undefined
  }
}

/**
 * Checkpoints `filename` (a SQLite file in WAL mode) in the background until `stop()`, or returns
 * undefined when no worker can run (then the writers' own checkpoints are all there is).
 *
 * @example
 * const checkpoints = checkpointInBackground('./data.db')
 * await checkpoints?.stop()
 */
export function checkpointInBackground(filename: string): CheckpointedFile | undefined {
  const current = currentWorker()
  if (current === undefined) return undefined
  registered++
  void send(current, { add: filename })
  let stopped: Promise<void> | undefined
  return {
    stop() {
      stopped ??= send(current, { remove: filename }).then(async () => {
        if (--registered === 0 && worker === current) {
          worker = undefined
          await current.terminate()
        }
      })
      return stopped
    },
  }
}

/**
 * Whether the worker runs (it stops when the last file is removed).
 *
 * @example
 * backgroundCheckpointerRunning() // false before the first file store, and after the last one closed
 */
export function backgroundCheckpointerRunning(): boolean {
  return worker !== undefined
}
