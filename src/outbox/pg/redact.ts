// A connection string holds a password: every message that may carry it (the
// driver's own errors echo host names, some echo the URL) goes through here.

/** The URL with its password replaced by ***, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL (not shown)';
  }
}

/** `text` with the URL, and its password in any spelling, taken out. */
export function redact(text: string, url: string): string {
  let out = text.split(url).join(redactedUrl(url));
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    // not a URL: the whole string was taken out above
  }
  for (const p of new Set([password, safeDecode(password)])) if (p.length >= 1) out = out.split(p).join('***');
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
