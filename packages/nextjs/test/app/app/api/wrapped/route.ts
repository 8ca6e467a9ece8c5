import { auth } from "@/auth"

export const GET = auth((request) => Response.json({ email: request.auth?.user?.email ?? null }))
