/**
 * The `account/` room: the signed-in user's account settings (issue 38): changing the email
 * address (`email-change.ts`, its link's pending state in `pending.ts`) and deleting the account
 * (`delete.ts`), each behind a recent authentication (`actor.ts`), with their pages (`pages.ts`).
 * Loaded by `import()` from `Auth()`'s route table (and the server's `changeEmail()` /
 * `deleteAccount()`) on first use: an app whose users never change their account loads none of it.
 *
 * Routes: `POST /account/email` (`{ csrfToken, email }`), `GET /account/email/confirm?token=` (the
 * link's page, which changes nothing), `POST /account/email/confirm` (`{ csrfToken, token }`: the
 * change applied) and `POST /account/delete` (`{ csrfToken }`).
 */
import { methodNotAllowed, notFound } from "../http/failures.js"
import type { RequestContext } from "../internal.js"
import { deleteAccount } from "./delete.js"
import { confirmEmailChange, requestEmailChange, showConfirmPage } from "./email-change.js"

/**
 * Answers a request to `{basePath}/account/{sub}`; `404` for a path that names no route here.
 *
 * @throws {Configuration} when the adapter lacks what the route needs.
 * @throws {MissingCSRF} for a POST without a valid CSRF token.
 * @throws {AdapterError} when the store fails.
 */
export async function accountRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  switch (sub) {
    case "email":
      return method === "POST" ? requestEmailChange(context) : methodNotAllowed(context, false, true)
    case "email/confirm":
      return method === "POST" ? confirmEmailChange(context) : showConfirmPage(context)
    case "delete":
      return method === "POST" ? deleteAccount(context) : methodNotAllowed(context, false, true)
    default:
      return notFound(context.request, context.url, context.config)
  }
}
