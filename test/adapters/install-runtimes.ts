/** Runs scripts/install-runtimes.sh: resolves to the printed binaries, or fails with the script's own words. */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('../../scripts/install-runtimes.sh', import.meta.url))

/**
 * The Bun and Deno binaries (one a line), installing them when missing; `env` adds to the process's
 * environment. Killed after `timeoutMs`, beyond the script's own bound, should that ever fail.
 */
export function installRuntimes(env: NodeJS.ProcessEnv = {}, timeoutMs = 170_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(script, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs }, (error, out, err) => {
      if (error === null) resolve(out.trim())
      else reject(new Error(`scripts/install-runtimes.sh failed (${error.message.split('\n')[0]}):\n${err.trim()}`))
    })
  })
}
