import { auth } from "@/auth"

export const runtime = "edge"

export async function GET() {
  const session = await auth()
  return Response.json({ runtime: typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === "string" ? "edge" : "nodejs", session })
}
