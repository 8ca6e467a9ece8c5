import { auth } from "@/auth"

export async function GET() {
  return Response.json({ session: await auth() })
}
