/**
 * The dependency rule of ARCHITECTURE.md, enforced: layers point one way. The model imports only
 * the model; stores import the model and stores; the HTTP layer imports the model, itself and the
 * store port; operations import the model, the HTTP layer and the store port; mounts import the
 * package only by its public names. A new arrow the wrong way fails here, naming the import.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Every relative import of a file, as repository paths (`src/http/errors.ts`). */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const found: string[] = []
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    if (specifier === undefined) continue
    found.push(normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts'))
  }
  return found
}

const STORE_PORT = 'src/stores/store.ts'

/** The layer a source file belongs to. */
function layerOf(path: string): string {
  if (path === STORE_PORT) return 'store port'
  const [top, second] = path.split('/')
  if (top === 'adapters') return 'mounts'
  if (top === 'src' && second !== undefined && !second.endsWith('.ts')) return second
  return 'entry'
}

/** What each lower layer may import, besides itself. Layers not listed here sit on top. */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  stores: ['model', 'store port'],
  'store port': ['model', 'stores'],
  http: ['model', 'store port'],
  operations: ['model', 'http', 'store port'],
}

describe('the dependency rule', () => {
  const files = [...sources('src'), ...sources('adapters')]

  it('finds the layers it checks', () => {
    const layers = new Set(files.map(layerOf))
    for (const layer of ['model', 'stores', 'store port', 'http', 'operations', 'mounts'])
      expect(layers).toContain(layer)
  })

  it('no lower layer imports a layer above it', () => {
    const wrong: string[] = []
    for (const file of files) {
      const from = layerOf(file)
      const allowed = ALLOWED[from]
      if (allowed === undefined) continue
      for (const target of relativeImports(file)) {
        const to = layerOf(target)
        if (to !== from && !allowed.includes(to)) wrong.push(`${file} (${from}) imports ${target} (${to})`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('mounts import the package only by its public names', () => {
    const wrong: string[] = []
    for (const file of sources('adapters'))
      for (const target of relativeImports(file))
        if (!target.startsWith('adapters/')) wrong.push(`${file} imports ${relative(root, join(root, target))}`)
    expect(wrong).toEqual([])
  })
})
