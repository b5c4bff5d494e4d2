import type { LookupFunction } from 'node:net';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { BadInputError } from '../runtime/errors';
import type { SecuritySettings } from './security-settings';

/** A request the network policy refuses (SEC-03), code `SSRF_BLOCKED`: bad input, so never retried. */
export class NetworkRefusedError extends BadInputError {
  constructor(message: string) {
    super(message, 'SSRF_BLOCKED');
  }
}

/** The network policy of the HTTP nodes, MCP over HTTP and anything else that calls out. */
export interface NetworkPolicy {
  readonly allowPrivate: boolean;
  readonly allowedAddresses: readonly string[];
  /** Resolves host names (tests pass their own; the default is the system resolver). */
  readonly lookup?: LookupFunction | undefined;
}

export function networkPolicyOf(http: SecuritySettings['http'], lookup?: LookupFunction): NetworkPolicy {
  return { allowPrivate: http.allowPrivate, allowedAddresses: http.allowedAddresses, lookup };
}

/**
 * Connection agents that check the address actually connected to (SEC-03): a literal IP before connecting,
 * a host name after DNS resolution (every address it resolves to), so a name pointing at 127.0.0.1 or the
 * metadata address is refused like the address itself. `request-filtering-agent` does the checks; it refuses
 * every range that is not public unicast (loopback, private, link-local incl. 169.254.169.254, CGNAT,
 * unique-local, IPv4-mapped IPv6, 0.0.0.0 and ::). No keep-alive: each request connects, so is checked, anew.
 */
export function guardedAgents(policy: NetworkPolicy): { http: HttpAgent; https: HttpsAgent } {
  if (policy.allowPrivate) return { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };
  const options = { keepAlive: false, allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: [...policy.allowedAddresses] };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}

/** Turns the agent's refusal into a NetworkRefusedError that says what to change; other errors pass. */
export function refusalOf(error: unknown, url: URL): Error {
  const message = error instanceof Error ? error.message : String(error);
  const match = /DNS lookup (\S+?)\(.*is not allowed\. Because,? (.+)$/.exec(message);
  if (!match) return error instanceof Error ? error : new Error(message);
  const address = match[1]!;
  const why = /meta/i.test(match[2]!) ? 'an unspecified (0.0.0.0 / ::) address' : 'not a public address (loopback, private, link-local or metadata)';
  return new NetworkRefusedError(
    `request to ${url.host} refused: ${address} is ${why}; set yukta.http.allow-private=true or list it in yukta.http.allowed-addresses to allow it`,
  );
}

/** Only http(s) URLs are requested; credentials in a URL are refused (they would be logged with it). */
export function checkRequestUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NetworkRefusedError(`"${raw.slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NetworkRefusedError(`only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new NetworkRefusedError('a URL may not carry a user name or password; send credentials in a header');
  return url;
}
