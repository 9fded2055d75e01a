/**
 * No production file over 400 lines (the project's size rule, issue 21): a file that grows
 * past it holds more than one concept and is split by concept, as src/demo/ and src/openapi/ were.
 * Lines are counted as `wc -l` counts them. The files over the limit when the rule came were listed
 * by path below, and the list could only shrink; all were split (issue 21), so the list is empty and
 * stays so.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { productionFiles, root } from './sources.js'

const MAX_LINES = 400

/** Files over {@link MAX_LINES}: none since issue 21. Add nothing here: split the file instead. */
const KNOWN_LONG_FILES: readonly string[] = []

/** Lines of a text as `wc -l` counts them for a file that ends in a newline, and one more if it does not. */
function lineCount(text: string): number {
  if (text === '') return 0
  const newlines = text.split('\n').length - 1
  return text.endsWith('\n') ? newlines : newlines + 1
}

describe('file size', () => {
  const files = [...productionFiles('src'), ...productionFiles('adapters')]
  const lines = new Map(files.map((file) => [file, lineCount(readFileSync(join(root, file), 'utf8'))]))

  it('counts lines as wc -l does', () => {
    expect([lineCount(''), lineCount('a\n'), lineCount('a\nb\n'), lineCount('a\nb'), lineCount('\n\n')]).toEqual([
      0, 1, 2, 2, 2,
    ])
    expect(files.length).toBeGreaterThan(100)
    expect(files).toContain('src/index.ts')
    expect(files).toContain('adapters/node.ts')
  })

  it(`no file under src/ or adapters/ has more than ${MAX_LINES} lines, but the known ones`, () => {
    const long = files
      .filter((file) => (lines.get(file) ?? 0) > MAX_LINES && !KNOWN_LONG_FILES.includes(file))
      .map((file) => `${file}: ${lines.get(file)} lines`)
    expect(long, `split these by concept into files of at most ${MAX_LINES} lines`).toEqual([])
  })

  it('the list of known long files only shrinks: every listed file exists and is still over the limit', () => {
    const stale = KNOWN_LONG_FILES.filter((file) => !((lines.get(file) ?? 0) > MAX_LINES)).map((file) =>
      lines.has(file) ? `${file}: ${lines.get(file)} lines now` : `${file}: gone`,
    )
    expect(stale, 'remove these from KNOWN_LONG_FILES').toEqual([])
  })
})
