import type { ReactNode } from "react"
import { auth } from "@/auth"
import { SessionProvider } from "@portcullis/nextjs/react"

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await auth()
  return (
    <html lang="en">
      <body>
        <SessionProvider session={session}>{children}</SessionProvider>
      </body>
    </html>
  )
}
