/**
 * `@portcullis/core/providers`: what a provider is (its configuration types), the sign-in flow
 * contract a provider carries, and the helpers every built-in provider factory uses. No flow is
 * imported here: a factory takes its flow from the flow's own entry (`@portcullis/core/oauth`,
 * `/email`, `/credentials`, `/oauth1`, `/webauthn`), so an app loads only the flows it uses.
 *
 * @module providers
 */
export type { Account, Awaitable, Profile, ProviderButtonStyles, ProviderType, TokenSet, User, WebAuthnProviderType } from "../model.js"
export type * from "./types.js"
export type { FlowProvider, FlowRoute, PageEntry, PageField, ProviderSetup, SignInFlow } from "../internal.js"
export { FLOW, incompleteProblem, incompleteProvider, lazyFlow } from "../config/flows.js"
export { customFetch } from "../config/flow-key.js"
export { mergeProviderConfig } from "./merge.js"
export { userFromClaims, type StandardClaims } from "./claims.js"
export { tenantIssuer } from "./tenant.js"
export { baseUrlOption } from "./base-url.js"
export { ACCOUNT_SIGN_IN_METHODS } from "../adapters.js"
// The error a provider factory throws for an unusable option, here so that a provider never loads
// `@portcullis/core/errors`, which also carries the error sentences core loads on first use.
export { Configuration } from "../errors/errors.js"
export { DEFAULT_LINK_MAX_AGE, emailApiOptions, mergeEmailConfig, sendEmailApiRequest, signInMessage, type SignInMessage } from "./email.js"
export { conformTokenResponse, type ConformTokenResponseOptions, type DroppableTokenField } from "./token-response.js"
