/**
 * What a bench run writes outside the repository (exported commits, database files) is removed when
 * its process ends: normally, on an error, or on Ctrl-C / SIGTERM / SIGHUP (the http bench stops each
 * server with SIGTERM). Only SIGKILL leaves something behind.
 */
import { rmSync } from 'node:fs'

const paths = new Set<string>()
let hooked = false

/** Removes every path registered so far, now (also run at exit). */
export function removeRegistered(): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true })
  paths.clear()
}

/**
 * Removes `path` (a file or a directory, recursively; symbolic links inside are removed, not
 * followed) when this process ends.
 *
 * @example
 * const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'bench-')))
 */
export function removeAtExit(path: string): string {
  paths.add(path)
  if (!hooked) {
    hooked = true
    process.once('exit', removeRegistered)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      // Removes, then lets the signal end the process as it would have (the listener is gone by then).
      process.once(signal, () => {
        removeRegistered()
        process.kill(process.pid, signal)
      })
    }
  }
  return path
}
