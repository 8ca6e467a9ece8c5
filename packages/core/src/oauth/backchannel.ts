/**
 * `POST {basePath}/backchannel-logout/:id`: the provider ends the user's sessions here (OpenID
 * Connect Back-Channel Logout 1.0). The logout token is checked as §2.6 requires, its `jti` is
 * remembered in the store every instance shares (a replay is refused), then the session records
 * it names are revoked: those started in the provider session `sid`, or with `sub` alone every
 * session of that user that signed in with this provider; with `sub`, also that user's sessions
 * from before the switch from Auth.js, whose provider is not known.
 *
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#BCRequest
 */
import type { AdapterSessionRecord } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { withAuditReason } from "../audit/trail.js"
import { readForm } from "../http/context.js"
import { Configuration, InvalidProvider } from "../errors/errors.js"
import { InvalidLogoutToken } from "../errors/flow-errors.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { keepsSessionRecords } from "../adapters.js"
import { endUnrecordedPreSwitchSessions, isPreSwitchRecord, revokeRecords } from "../session/records.js"
import { callAdapter } from "../outbound/store.js"
import { verifyLogoutToken } from "./logout-token.js"
import type { InternalOAuthProvider } from "./provider.js"

/**
 * Answers a provider's logout request: `200` once the sessions it names are ended (none is
 * fine), `400` with nothing ended for any token that fails a check (by the error thrown).
 *
 * @throws {InvalidProvider} when the provider does not take back-channel logout.
 * @throws {InvalidLogoutToken} when the request or its token fails a check, or was seen before.
 * @throws {AdapterError} when the store fails.
 */
export async function backchannelLogout(context: RequestContext, { id, options: provider }: FlowProvider<InternalOAuthProvider>): Promise<Response> {
  auditAs(context, "sessionRevoke", id)
  if (!provider.backchannelLogout) throw new InvalidProvider(`Provider "${id}" does not take back-channel logout (\`backchannelLogout\`).`)
  const { config } = context
  const adapter = config.adapter
  // Checked at start: reaching here without an adapter that keeps records is a bug.
  if (!keepsSessionRecords(adapter)) throw new Configuration(`Back-channel logout of provider "${id}" needs an adapter that keeps session records.`)
  const tokens = (await readForm(context.request)).getAll("logout_token")
  if (tokens.length !== 1) throw new InvalidLogoutToken("A back-channel logout request carries exactly one `logout_token`.")
  const claims = await verifyLogoutToken(provider, tokens[0] ?? "")
  if (!(await callAdapter(adapter, "useOnce", `backchannel-logout ${id} ${claims.jti}`, new Date(claims.exp * 1000)))) {
    throw withAuditReason(new InvalidLogoutToken(`The logout token's \`jti\` was already used: a replay of provider "${id}"'s logout.`), "replayed")
  }
  const user = claims.sub === undefined ? null : await callAdapter(adapter, "getUserByAccount", { provider: id, providerAccountId: claims.sub })
  let records: AdapterSessionRecord[]
  if (claims.sid !== undefined) {
    records = await callAdapter(adapter, "listSessionRecords", { provider: id, providerSid: claims.sid })
    // With `sub` too, only that user's: a `sid` is the provider's, and names one user's session.
    if (claims.sub !== undefined) records = records.filter((record) => record.userId === user?.id)
  } else {
    records = user === null ? [] : (await callAdapter(adapter, "listSessionRecords", { userId: user.id })).filter((record) => record.provider === id)
  }
  if (user !== null) {
    // A session from before the switch does not say which provider (or provider session) it came
    // from: any logout of its user ends it, rather than none; a `sid` alone names no user, and ends none.
    const preSwitch = (await callAdapter(adapter, "listSessionRecords", { userId: user.id })).filter((record) => isPreSwitchRecord(record) && record.userId === user.id)
    records = [...records, ...preSwitch.filter((record) => !records.some((listed) => listed.id === record.id))]
    await endUnrecordedPreSwitchSessions(config, user.id)
  }
  const ended = await revokeRecords(config, records, "backchannelLogout")
  // A `sid` alone names one user's provider session: that user, when it had any session here.
  await auditSuccess(context, user?.id ?? records[0]?.userId, "backchannelLogout")
  config.logger.debug(`Back-channel logout of provider "${id}" ended ${String(ended)} session(s).`)
  return new Response(null, { status: 200, headers: { "cache-control": "no-store" } })
}
