// A connection string holds a password: every message that may carry it (the
// driver's own errors echo host names, some echo the URL) goes through here.
// The URL is never printed as given: it is rebuilt from its parts, without
// the password, the query (which may hold ?password= or sslpassword=) and the
// fragment.

const SECRET_PARAMS = ['password', 'sslpassword', 'sslkey', 'sslcert', 'sslrootcert'];

/** The URL with its password replaced by ***, for messages. */
export function redactedUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the configured URL (not shown)';
  }
  // An unencoded '@', '#', '/' or '?' in the password makes the parser split it
  // elsewhere, so part of it would show up as the host or the path.
  const typed = typedPassword(url);
  if (typed !== undefined && typed !== u.password) return 'the configured URL (not shown: percent-encode the special characters of its password)';
  const user = u.username ? `${u.username}${u.password ? ':***' : ''}@` : '';
  return `${u.protocol}//${user}${u.host}${u.pathname}${u.search ? '?…' : ''}`;
}

/** `text` with the URL, and its password in any spelling, taken out. */
export function redact(text: string, url: string): string {
  let out = text.split(url).join(redactedUrl(url));
  const secrets = new Set<string>();
  const typed = typedPassword(url);
  if (typed) secrets.add(typed);
  try {
    const u = new URL(url);
    secrets.add(u.password);
    for (const name of SECRET_PARAMS) for (const value of u.searchParams.getAll(name)) secrets.add(value);
  } catch {
    // not a URL: the whole string was taken out above
  }
  for (const s of [...secrets]) secrets.add(safeDecode(s));
  // Longest first, so a password that contains another secret is taken out whole.
  for (const s of [...secrets].filter((p) => p.length >= 1).sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
  return out;
}

/** The password as typed: between the first ':' after "//" and the last '@' before the path. */
function typedPassword(url: string): string | undefined {
  const start = url.indexOf('//');
  if (start === -1) return undefined;
  const at = url.lastIndexOf('@');
  if (at <= start) return undefined;
  const userinfo = url.slice(start + 2, at);
  const colon = userinfo.indexOf(':');
  return colon === -1 ? undefined : userinfo.slice(colon + 1);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
