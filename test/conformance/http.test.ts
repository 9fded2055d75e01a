import { runHttpConformance } from 'tenant-public-api/conformance'
import { assertMatchesContract } from '../support/contract.js'

// Authentication, scopes and request validation do not depend on the store: checked once, on memory.
runHttpConformance({ onResponse: assertMatchesContract })
