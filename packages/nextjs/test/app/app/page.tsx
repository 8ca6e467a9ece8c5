// app/page.tsx
import { Suspense } from "react"
import { auth, signIn, signOut } from "@/auth"

export default function Page() {
  return (
    <main>
      <Suspense fallback={<p>Loading…</p>}>
        <Account />
      </Suspense>
    </main>
  )
}

async function Account() {
  const session = await auth()
  if (!session) {
    return (
      <form action={async () => { "use server"; await signIn() }}>
        <p>Signed out</p>
        <button>Sign in</button>
      </form>
    )
  }
  return (
    <form action={async () => { "use server"; await signOut() }}>
      <p>Signed in as {session.user?.email}</p>
      <button>Sign out</button>
    </form>
  )
}
