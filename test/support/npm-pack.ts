/**
 * What `npm pack --json` says of the one package it packed: npm 12 answers an object keyed by the
 * package's name, earlier npm an array with one entry per package.
 */
export interface Packed {
  filename: string
  files: Array<{ path: string }>
}

export function packedOf(json: string): Packed {
  const parsed = JSON.parse(json) as Packed[] | Record<string, Packed>
  const [packed] = Array.isArray(parsed) ? parsed : Object.values(parsed)
  if (packed === undefined) throw new Error(`npm pack --json named no package: ${json.slice(0, 200)}`)
  return packed
}
