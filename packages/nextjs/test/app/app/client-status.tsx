"use client"
import { useSession } from "@portcullis/nextjs/react"

export function ClientStatus() {
  const { data, status } = useSession()
  return <p id="client-status">{status === "authenticated" ? `Client sees ${data.user?.email}` : status}</p>
}
