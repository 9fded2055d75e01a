/**
 * The dependency rule of ARCHITECTURE.md, enforced: layers point one way. The model imports only
 * the model; the ports (store, webhook store, dispatch, rate limiter) only the model; stores, the
 * HTTP layer and the webhook dispatcher stand side by side on the model and the ports, none
 * importing another; operations import the model, the HTTP layer and the ports; mounts import the
 * package only by its public names. A new arrow the wrong way fails here, naming the import.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { productionFiles, root } from './sources.js'

const sources = (dir: string) => productionFiles(dir, /\.tsx?$/)

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

/** The layer a source file belongs to: its folder under src/. */
function layerOf(path: string): string {
  const [top, second] = path.split('/')
  if (top === 'adapters') return 'mounts'
  if (top === 'src' && second !== undefined && !second.endsWith('.ts')) return second
  return 'entry'
}

/** What each lower layer may import, besides itself. Layers not listed here sit on top. */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  ports: ['model'],
  stores: ['model', 'ports'],
  http: ['model', 'ports'],
  webhooks: ['model', 'ports'],
  operations: ['model', 'http', 'ports'],
}

describe('the dependency rule', () => {
  const files = [...sources('src'), ...sources('adapters')]

  it('finds the layers it checks', () => {
    const layers = new Set(files.map(layerOf))
    for (const layer of ['model', 'ports', 'stores', 'http', 'webhooks', 'operations', 'mounts'])
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

describe('the core knows no host', () => {
  it('sniffs no runtime under src/: no Bun, Deno, navigator or process.release in code (comments aside)', () => {
    const files = sources('src')
    expect(files.length).toBeGreaterThan(100)
    const sniffing = /\b(?:Bun|Deno|navigator|userAgent)\b|process\.release/g
    const found = files.flatMap((file) => {
      const code = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      return [...code.matchAll(sniffing)].map((match) => `${file}: ${match[0]}`)
    })
    expect(found).toEqual([])
  })
})
