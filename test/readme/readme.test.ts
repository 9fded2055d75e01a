import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { operations } from 'tenant-public-api'
import { renderReference, withReference } from '../../scripts/readme-reference.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('README', () => {
  it('carries the reference generated from the registry (run `npm run readme` after changing a route)', () => {
    expect(readme).toBe(withReference(readme))
  })

  it('documents every operation', () => {
    const reference = renderReference()
    for (const op of operations)
      expect(reference).toContain(`\`${op.method} /api/public/v1${op.path.replace(/:(\w+)/g, '{$1}')}\``)
    expect(operations).toHaveLength(21)
  })

  it('states the test command that CI runs', () => {
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8')
    expect(ci).toMatch(/^npm test$/m)
    expect(readme).toMatch(/^npm test\b/m)
  })
})
