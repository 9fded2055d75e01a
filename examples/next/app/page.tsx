export default function Home() {
  return (
    <main>
      <h1>tenant-public-api on Next.js</h1>
      <p>
        The API is served by <code>app/api/public/v1/[...path]/route.ts</code>: try{' '}
        <code>curl -H 'Authorization: Bearer test:demo:*' http://localhost:3000/api/public/v1/tickets</code>
      </p>
    </main>
  )
}
