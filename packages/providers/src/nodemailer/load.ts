import { Configuration } from "@portcullis/core/providers"

/** What the provider uses of nodemailer's module. */
export type NodemailerModule = typeof import("nodemailer")

/** Whether `error` says that the module `name` itself could not be found (not one of its imports). */
function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as Error & { code?: unknown }).code
  // Node's ESM loader says ERR_MODULE_NOT_FOUND, require() and bundlers say MODULE_NOT_FOUND.
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && error.message.includes(`'${name}'`)
}

/**
 * Loads nodemailer on the first sign-in email. It is an optional peer dependency, so apps that
 * never send email through SMTP do not install it, and importing `@portcullis/providers/nodemailer`
 * alone must not fail.
 *
 * @throws {Configuration} naming `npm install nodemailer` when the package is not installed;
 * any other failure of the import is rethrown as it is.
 */
export async function importNodemailer(load: () => Promise<NodemailerModule> = () => import("nodemailer")): Promise<NodemailerModule> {
  try {
    return await load()
  } catch (cause) {
    if (!isMissing(cause, "nodemailer")) throw cause
    throw new Configuration("Nodemailer: the `nodemailer` package is not installed. It is an optional peer dependency of @portcullis/providers: run `npm install nodemailer` in your app.", { cause })
  }
}
