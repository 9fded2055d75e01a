/**
 * The production files the architecture tests read: every file under src/ and adapters/, as
 * repository paths (`src/http/errors.ts`), in a stable order.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The repository root. */
export const root = join(import.meta.dirname, '../..')

/**
 * Every file under `dir` (a repository path), recursively, sorted; `only` keeps the names it matches.
 *
 * @example
 * productionFiles('src', /\.tsx?$/) // ['src/client/create-client.ts', ...]
 */
export function productionFiles(dir: string, only: RegExp = /./): string[] {
  return readdirSync(join(root, dir))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      if (statSync(join(root, path)).isDirectory()) return productionFiles(path, only)
      return only.test(name) ? [path] : []
    })
}
