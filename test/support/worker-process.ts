/** A test's worker script run in its own OS process (real concurrency, real crashes). */
import { type ChildProcess, fork } from 'node:child_process'

/** A running worker: its process, and the JSON of the last line it printed once it exits with 0. */
export interface WorkerProcess<T> {
  child: ChildProcess
  /** Rejects with the worker's stderr when it exits otherwise (a signal, a non-zero code, a spawn error). */
  result: Promise<T>
}

/**
 * Runs the TypeScript file `script` (through tsx) with `args` as its one JSON argument, with an IPC
 * channel for messages both ways.
 *
 * @example
 * const { result } = forkWorker<{ statuses: number[] }>(workerPath, { store: 'sqlite' })
 */
export function forkWorker<T>(script: string, args: object): WorkerProcess<T> {
  const child = fork(script, [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx'],
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
