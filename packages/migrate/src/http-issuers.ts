/** Providers whose issuer is plain http: Auth.js reaches them, Portcullis refuses them. */
import ts from "typescript"
import type { ManualStep } from "./migrate-code.js"
import { positionOf, type CodeFile } from "./parse.js"

/** The option with which Portcullis reaches an IdP on plain-http loopback. */
const OPTION = "allowInsecureLoopbackRequests"

function property(literal: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return literal.properties.find((candidate) => candidate.name !== undefined && (ts.isIdentifier(candidate.name) || ts.isStringLiteral(candidate.name)) && candidate.name.text === name)
}

/**
 * Lists each object literal with an `issuer` written as an `http://` URL and no
 * `allowInsecureLoopbackRequests` (a provider object or a provider factory's options): Auth.js
 * fetches any issuer over plain http, Portcullis refuses it unless the provider allows a loopback one.
 */
export function httpIssuerSteps(code: CodeFile): ManualStep[] {
  const steps: ManualStep[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && property(node, OPTION) === undefined) {
      const issuer = property(node, "issuer")
      if (issuer !== undefined && ts.isPropertyAssignment(issuer) && ts.isStringLiteralLike(issuer.initializer) && issuer.initializer.text.startsWith("http://")) {
        steps.push({ file: code.file, ...positionOf(code.source, issuer), step: `the issuer ${issuer.initializer.text} is plain http, which Auth.js fetched and Portcullis refuses: use its https URL, or for an IdP on a loopback address in development add ${OPTION}: true to this provider` })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(code.source)
  return steps
}
