/**
 * The peer matrix's two host apps (test/build/peer-matrix.test.ts): one with every peer of
 * package.json at the lowest version its range admits, one with every peer at its newest release.
 * Exact versions, so that `npm install` (no flags) proves each one inside the package's ranges.
 * To follow a new release of a peer: raise its version in `newest` (and its range in package.json
 * when it is a new major), then run the matrix.
 */
export interface HostApp {
  name: 'lowest' | 'newest'
  /** Every peer of package.json, at one exact version. */
  peers: Readonly<Record<string, string>>
  /** What the host needs besides (Next.js's React). */
  extra: Readonly<Record<string, string>>
}

export const HOSTS: readonly HostApp[] = [
  {
    name: 'lowest',
    peers: {
      '@modelcontextprotocol/sdk': '1.32.0',
      '@opentelemetry/api': '1.9.0',
      '@types/better-sqlite3': '7.6.0',
      '@types/pg': '8.11.0',
      'better-sqlite3': '13.0.0',
      express: '4.17.0',
      ioredis: '5.0.0',
      kysely: '0.28.2',
      next: '14.0.0',
      pg: '8.11.0',
      redis: '5.0.0',
      vitest: '3.0.0',
    },
    extra: { react: '18.2.0', 'react-dom': '18.2.0' },
  },
  {
    name: 'newest',
    peers: {
      '@modelcontextprotocol/sdk': '1.32.2',
      '@opentelemetry/api': '1.10.0',
      '@types/better-sqlite3': '9.6.0',
      '@types/pg': '8.23.1',
      'better-sqlite3': '13.2.0',
      express: '5.3.0',
      ioredis: '6.0.0',
      kysely: '0.29.9',
      next: '16.4.6',
      pg: '8.23.1',
      redis: '6.3.1',
      vitest: '5.1.2',
    },
    extra: { react: '19.2.0', 'react-dom': '19.2.0' },
  },
]
