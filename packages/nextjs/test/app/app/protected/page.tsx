import { Suspense } from "react"
import { auth } from "@/auth"

export default function Protected() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <Content />
    </Suspense>
  )
}

async function Content() {
  const session = await auth()
  return <p>Protected content for {session?.user?.email}</p>
}
