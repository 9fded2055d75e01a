/**
 * Fetching Bun and Deno (scripts/install-runtimes.sh, run by the runtime tests) is bounded: a
 * registry that refuses connections or never answers fails the install within its limit, with a
 * message naming what could not be fetched from where, instead of a test run that waits forever.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installRuntimes } from './install-runtimes.js'

const dir = mkdtempSync(join(tmpdir(), 'tpa-runtimes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('scripts/install-runtimes.sh', () => {
  it('fails at once, naming bun, deno and the registry, when the registry refuses connections', async () => {
    const registry = 'http://127.0.0.1:9/'
    const started = Date.now()
    const failure = installRuntimes({ RUNTIMES_DIR: join(dir, 'refused'), npm_config_registry: registry }, 60_000)
    await expect(failure).rejects.toThrow(
      `could not fetch the npm packages bun and deno from ${registry}: npm failed (exit 1; its error is above)`,
    )
    expect(Date.now() - started).toBeLessThan(60_000)
  }, 70_000)

  it('gives up after RUNTIMES_INSTALL_TIMEOUT seconds on a registry that never answers', async () => {
    const sockets: Socket[] = []
    const silent = createServer((socket) => sockets.push(socket)) // accepts, reads, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const registry = `http://127.0.0.1:${port}/`
    try {
      const failure = installRuntimes(
        { RUNTIMES_DIR: join(dir, 'silent'), npm_config_registry: registry, RUNTIMES_INSTALL_TIMEOUT: '3' },
        30_000,
      )
      await expect(failure).rejects.toThrow(
        `could not fetch the npm packages bun and deno from ${registry}: npm did not finish within 3 s`,
      )
      expect(sockets.length).toBeGreaterThan(0)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  }, 40_000)
})
