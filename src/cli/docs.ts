// The parts of docs/*.md and README.md that come from code, between
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` markers; the text
// around them is written by hand. `npm run generate` fills them in, and a
// test fails when a committed copy drifts.

import { ERROR_CODES, WARNING_CODES } from '../core/diagnostics.js';
import { eventTableMarkdown } from '../core/event-catalogue.js';
import { CODE_DOCS, ENVIRONMENT, ERROR_OBJECT_CODES, EXIT_STATUSES, FILES } from './reference.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|');
const tableOf = (header: string[], rows: string[][]): string =>
  [header, header.map(() => '---'), ...rows].map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n') + '\n';

const codeRows = (codes: readonly string[]): string[][] =>
  codes.filter((c) => CODE_DOCS[c as keyof typeof CODE_DOCS]).map((c) => [`\`${c}\``, CODE_DOCS[c as keyof typeof CODE_DOCS]!]);

export function docRegions(): Record<string, string> {
  return {
    events: eventTableMarkdown(),
    'exit-codes': tableOf(['code', 'meaning', 'stdout'], EXIT_STATUSES.map((e) => [String(e.code), e.meaning, e.stdout])),
    'error-object-codes': tableOf(['`error.code`', 'meaning (exit status)'], Object.entries(ERROR_OBJECT_CODES).map(([c, m]) => [`\`${c}\``, m])),
    'error-codes': tableOf(['code', 'meaning'], codeRows(ERROR_CODES)),
    'warning-codes': tableOf(['code', 'meaning'], codeRows(WARNING_CODES)),
    files: tableOf(['path', 'holds'], FILES.map((f) => [`\`${f.name}\``, f.about])),
    environment: tableOf(['variable', 'effect'], ENVIRONMENT.map((e) => [`\`${e.name}\``, e.about])),
  };
}

const REGION = /(<!-- generated:([\w-]+) -->\n)[\s\S]*?(<!-- \/generated:\2 -->)/g;

/** `text` with every marked region replaced by its generated content; unknown names are left alone. */
export function fillRegions(text: string, regions: Record<string, string> = docRegions()): string {
  return text.replace(REGION, (whole, open: string, name: string, close: string) => (Object.hasOwn(regions, name) ? `${open}${regions[name]}${close}` : whole));
}
