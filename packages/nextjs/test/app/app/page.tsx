import { auth, signIn, signOut } from "@/auth"
import { ClientStatus } from "./client-status"

export default async function Home() {
  const session = await auth()
  return (
    <main>
      <p id="status">{session ? `Signed in as ${session.user?.email}` : "Signed out"}</p>
      <ClientStatus />
      {session ? (
        <form
          action={async () => {
            "use server"
            await signOut({ redirectTo: "/" })
          }}
        >
          <button type="submit">Sign out</button>
        </form>
      ) : (
        <form
          action={async () => {
            "use server"
            await signIn("idp", { redirectTo: "/" })
          }}
        >
          <button type="submit">Sign in with Demo IdP</button>
        </form>
      )}
    </main>
  )
}
