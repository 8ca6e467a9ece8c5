import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async (event) => {
  const session = await event.locals.auth()
  if (!session?.user) redirect(303, `/auth/signin?${new URLSearchParams({ callbackUrl: event.url.pathname }).toString()}`)
  return { email: session.user.email }
}
