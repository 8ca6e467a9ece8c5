import { Suspense } from "react"
import { auth } from "@/auth"

// Next.js's documented place for a session read that may be cached: per request, never shared.
async function privateSession() {
  "use cache: private"
  return auth()
}

export default function Page() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Private />
    </Suspense>
  )
}

async function Private() {
  const session = await privateSession()
  return <p>Private for {session?.user?.email ?? "nobody"}</p>
}
