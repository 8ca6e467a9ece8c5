import type { ReactNode } from "react"
import { SessionProvider } from "@portcullis/nextjs/react"
import { ClientStatus } from "./client-status"

// No server read here: a layout that awaited auth() would hold every page behind the request
// (and fail `next build` under Cache Components); the provider fetches the session itself.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SessionProvider>
          <ClientStatus />
          {children}
        </SessionProvider>
      </body>
    </html>
  )
}
