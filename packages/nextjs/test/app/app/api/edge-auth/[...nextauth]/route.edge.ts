import { handlers } from "@/edge-auth"

export const { GET, POST } = handlers
export const runtime = "edge"
