/**
 * An app on unstorage with `@auth/unstorage-adapter`, as Auth.js's guide sets it up, after
 * switching to Portcullis. The adapter comes from npm unchanged.
 */
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { createStorage } from "unstorage"
import { Auth, type AuthConfig } from "@portcullis/core"

const storage = createStorage()

export const config: AuthConfig = {
  adapter: UnstorageAdapter(storage, { baseKeyPrefix: "auth:" }),
  providers: [],
  secret: process.env.AUTH_SECRET,
}

export const handler = (request: Request): Promise<Response> => Auth(request, config)
