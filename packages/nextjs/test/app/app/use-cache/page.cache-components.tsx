import { Suspense } from "react"
import { connection } from "next/server"
import { auth } from "@/auth"

// The mistake the docs warn about: a session read inside a plain "use cache" function, whose
// result Next.js would share with every visitor.
async function cachedSession() {
  "use cache"
  return auth()
}

export default function Page() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Cached />
    </Suspense>
  )
}

async function Cached() {
  // Only at request time: at build time the same mistake fails `next build`.
  await connection()
  const session = await cachedSession()
  return <p>Cached for {session?.user?.email ?? "nobody"}</p>
}
