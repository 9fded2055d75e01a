// The exported suite's store-independent HTTP checks (authentication, scopes, validation, list walks),
// on the installed build: they depend on no peer, so the matrix runs them on Node.js 26 only.
import { runHttpConformance } from 'tenant-public-api/conformance'

runHttpConformance()
