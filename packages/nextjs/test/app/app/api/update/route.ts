import { unstable_update } from "@/auth"

export async function POST(request: Request) {
  const { nickname } = (await request.json()) as { nickname?: string }
  return Response.json({ session: await unstable_update({ nickname } as never) })
}
