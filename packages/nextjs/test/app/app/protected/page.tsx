import { auth } from "@/auth"

export default async function Protected() {
  const session = await auth()
  return <p id="protected">Protected content for {session?.user?.email}</p>
}
