// Local means local (issue 29). Two checks every request passes before anything else, on the
// app (proxy.ts) and on serve:env (server/env-server/server.ts, HTTP and the WebSocket upgrade):
// - Host: a browser sends the name it resolved, so a page whose own name was re-pointed at
//   127.0.0.1 (DNS rebinding) arrives with that foreign name. Accepted: loopback names and
//   addresses, the bound address, any IP address when bound to all of them (0.0.0.0, ::: a
//   rebinding page cannot make a browser send an address as Host), and the names the operator
//   lists in ECOMRLVE_PUBLIC_HOSTS (comma-separated, e.g. `playground.example.com`).
// - Cross-site writes: a state-changing request (anything but GET, HEAD, OPTIONS) that a browser
//   marks as coming from another site (Sec-Fetch-Site) or whose Origin names another host is
//   refused, with auth on or off. Programs (curl, trainers) send neither header and pass.
// Pure: no Node or Next imports.

export interface RequestFacts {
  method: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
}

export interface Refusal {
  status: 403;
  code: 'FOREIGN_HOST' | 'CROSS_SITE';
  message: string;
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);
const isIpv4 = (h: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(h);
const isLoopback = (h: string) =>
  h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);

/** The host name of a Host header value (lower case, port dropped, IPv6 kept in brackets). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d*$/, '').replace(/\.$/, '');
}

/** A bind address as a host name (an IPv6 address in brackets, as a Host header has it). */
const bindName = (bind: string) => hostName(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);

/** Whether a server bound to `bind` (the app's ECOMRLVE_BIND, serve:env's host) is reachable from this machine only. */
export const isLoopbackBind = (bind: string) => isLoopback(bindName(bind));

export function publicHosts(env: Record<string, string | undefined>): string[] {
  return (env.ECOMRLVE_PUBLIC_HOSTS ?? '')
    .split(',')
    .map((h) => hostName(h))
    .filter(Boolean);
}

export function hostAllowed(host: string, bind: string | undefined, env: Record<string, string | undefined>): boolean {
  const name = hostName(host);
  if (isLoopback(name)) return true;
  const bound = bind ? bindName(bind) : '';
  if (bound && name === bound) return true;
  if (bind && WILDCARD.has(bind.trim()) && (isIpv4(name) || name.startsWith('['))) return true;
  return publicHosts(env).includes(name);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why this request is refused before any route sees it, or null. */
export function localRequestRefusal(
  req: RequestFacts,
  bind: string | undefined,
  env: Record<string, string | undefined>,
): Refusal | null {
  if (req.host !== null && !hostAllowed(req.host, bind, env))
    return {
      status: 403,
      code: 'FOREIGN_HOST',
      message: `this server does not answer to the host name "${hostName(req.host).slice(0, 100)}"; the operator lists public names in ECOMRLVE_PUBLIC_HOSTS`,
    };
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null;
  const site = req.secFetchSite?.toLowerCase();
  const crossSite = site === 'cross-site' || site === 'same-site';
  let foreignOrigin = false;
  if (!site && req.origin && req.host) {
    try {
      foreignOrigin = new URL(req.origin).host.toLowerCase() !== req.host.trim().toLowerCase();
    } catch {
      foreignOrigin = true; // "null" (a sandboxed frame, a file) or garbage
    }
  }
  if (crossSite || foreignOrigin)
    return {
      status: 403,
      code: 'CROSS_SITE',
      message: 'a request from another site may not change anything here (Origin / Sec-Fetch-Site)',
    };
  return null;
}
