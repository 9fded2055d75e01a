export default function Home() {
  return (
    <main>
      <h1>tenant-public-api on Next.js</h1>
      <p>
        The API is served by <code>app/api/public/v1/[...path]/route.ts</code>: try{' '}
        <code>curl -H 'Authorization: Bearer tpa_...' http://localhost:3000/api/public/v1/tickets</code> with the demo
        key the server prints on its first request.
      </p>
    </main>
  )
}
