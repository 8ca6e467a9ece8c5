import { json } from "@sveltejs/kit"
import type { RequestHandler } from "./$types"

// An endpoint reading the session, as load functions do.
export const GET: RequestHandler = async ({ locals }) => json({ session: await locals.auth() })
