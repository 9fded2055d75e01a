/**
 * Type escapes (`as never`, `as unknown as`) in production code can only become fewer (issue 31). Where
 * the generic store port (src/ports/records.ts) meets the stores, the one place that reads a typed
 * collection as an untyped definition, or an untyped record as the port's type, is
 * src/stores/typed-records.ts; the memory and SQL stores and the ports hold none of their own.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { productionFiles, root } from './sources.js'

/** The count when the rule came; lower it when an escape goes, never raise it. */
const MAX_ESCAPES = 15

const ESCAPE = /\bas never\b|\bas unknown as\b/g

/** The escapes of `text`, one per occurrence. */
function escapesIn(text: string): number {
  return text.match(ESCAPE)?.length ?? 0
}

describe('type escapes', () => {
  const files = productionFiles('src', /\.ts$/)
  const counts = new Map(files.map((file) => [file, escapesIn(readFileSync(join(root, file), 'utf8'))]))

  it('counts each escape once, wherever it stands', () => {
    expect(escapesIn('f(x as never, y as never); z as unknown as T; a as neverland; b as unknownish')).toBe(3)
    expect(files).toContain('src/stores/typed-records.ts')
  })

  it(`src/ holds at most ${MAX_ESCAPES}`, () => {
    const total = [...counts.values()].reduce((a, b) => a + b, 0)
    const where = [...counts].filter(([, n]) => n > 0).map(([file, n]) => `${file}: ${n}`)
    expect(total, where.join('\n')).toBeLessThanOrEqual(MAX_ESCAPES)
  })

  it('the ports and the memory and SQL stores hold none: their erasure is src/stores/typed-records.ts', () => {
    const generic = [...counts].filter(
      ([file, n]) => n > 0 && /^src\/(ports|stores\/memory|stores\/sql)\//.test(file.replaceAll('\\', '/')),
    )
    expect(generic).toEqual([])
  })
})
