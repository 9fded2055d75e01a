import { fileURLToPath } from 'node:url'

// In your app the package comes from node_modules and none of this is needed. Here it is the
// repository's own build (npm run build), so Turbopack may look outside this folder for it.
const repository = fileURLToPath(new URL('../..', import.meta.url))

/** @type {import('next').NextConfig} */
export default {
  turbopack: {
    root: repository,
    resolveAlias: {
      'tenant-public-api': './dist/index.js',
      'tenant-public-api/next': './dist/next.js',
      'tenant-public-api/testing': './dist/testing.js',
    },
  },
}
