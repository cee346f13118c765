// The PostgreSQL outbox's connection string never reaches a message with its
// password, whatever way the password is given.
import { describe, expect, it } from 'vitest';
import { redact, redactedUrl } from '../../src/outbox/pg/redact.js';

describe('redactedUrl', () => {
  it.each([
    ['postgres://chrys:s3cret@db.example:5432/outbox', 'postgres://chrys:***@db.example:5432/outbox'],
    ['postgres://chrys@db.example/outbox?password=QSECRET99', 'postgres://chrys@db.example/outbox?…'],
    ['postgres://chrys:p%40ss@db/outbox', 'postgres://chrys:***@db/outbox'],
    ['postgres://db/outbox#frag', 'postgres://db/outbox'],
  ])('%s -> %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown);
  });

  it('shows nothing of a URL whose password has an unencoded @ or #, which the parser would split', () => {
    for (const url of ['postgres://chrys:p@ss#wSECRET@db/outbox', 'postgres://chrys:a@bSECRET@db/outbox']) {
      const shown = redactedUrl(url);
      expect(shown).not.toMatch(/SECRET|ss#|a@b/);
      expect(shown).toContain('percent-encode');
    }
  });

  it('shows "not shown" for a string that is not a URL', () => {
    expect(redactedUrl('host=db password=x')).toBe('the configured URL (not shown)');
  });
});

describe('redact', () => {
  it('takes the password out of a driver message in every spelling, and query secrets too', () => {
    const url = 'postgres://chrys:p%40ss@db/outbox?sslpassword=KEYPASS';
    const text = `connect failed for ${url}: password "p@ss" rejected, p%40ss, KEYPASS`;
    const out = redact(text, url);
    expect(out).not.toMatch(/p@ss|p%40ss|KEYPASS/);
    expect(out).toContain('postgres://chrys:***@db/outbox?…');
  });

  it('takes out a typed password the URL parser split', () => {
    const url = 'postgres://chrys:p@ss#wSECRET@db/outbox';
    expect(redact('auth failed: p@ss#wSECRET', url)).toBe('auth failed: ***');
  });
});
