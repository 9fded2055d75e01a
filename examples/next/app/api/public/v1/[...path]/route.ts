import { toNextRouteHandlers } from 'tenant-public-api/next'
import { api } from '../../../../../lib/api'

// 'nodejs' is required for the SQLite store (a native module); the memory store runs anywhere.
export const runtime = 'nodejs'
export const { GET, POST, PATCH, DELETE, PUT, HEAD, OPTIONS } = toNextRouteHandlers(api)
