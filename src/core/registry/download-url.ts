/**
 * Which URLs the registry code downloads from: https, and plain http only to this machine (the tests' and a local
 * mirror's 127.0.0.1 server), never with credentials in the URL. A redirect is checked the same way and never
 * leads from https down to http. What an agent's archive holds is run, so a URL that an attacker on the network
 * could answer (plain http), or one that reads this machine (file:), is never followed.
 */

/** True for a host name that is this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why nothing may be downloaded from `url`, or undefined when it may. */
export function downloadUrlProblem(url: string | URL): string | undefined {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    return `'${url}' is not a URL`;
  }
  if (u.username || u.password) return `${u.protocol}//${u.host}: a URL with a user name or password is refused`;
  if (u.protocol === "https:") return undefined;
  if (u.protocol === "http:")
    return isLoopbackHost(u.hostname)
      ? undefined
      : `plain http is refused (https only; http only to this machine): ${u.href}`;
  return `the ${u.protocol} scheme is refused (https only)`;
}

/** Why the redirect from `from` to `to` may not be followed, or undefined when it may. */
export function redirectProblem(from: URL, to: URL): string | undefined {
  if (from.protocol === "https:" && to.protocol !== "https:")
    return `a redirect from https to ${to.protocol} is refused (${from.href} → ${to.href})`;
  return downloadUrlProblem(to);
}
