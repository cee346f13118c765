// The fast first read of a YAML hooks file: js-yaml builds plain data about
// five times faster than the `yaml` document model (1,000 hooks: ~125 ms
// against ~600 ms, measured; docs/performance.md), but keeps no positions.
// A file it reads is schema-checked from this data; only a file with a
// problem is read again by `yaml` to place each diagnostic (read.ts).
//
// It must never accept a file `yaml` reads differently. So anything the two
// might disagree on is refused here and left to `yaml`: aliases (and so
// merge keys that use them, and alias bombs), explicit tags, duplicate keys,
// anything js-yaml throws on, and a lone CR (a line break to js-yaml, text
// inside a comment or scalar to `yaml`). test/unit/fast-yaml.test.ts holds the two to
// the same data over every YAML fixture and a generated corpus.

/** The file's data, or undefined when the file must go to the positioned parser. */
export async function fastYamlData(text: string): Promise<{ data: unknown } | undefined> {
  if (text.trim() === '' || /(^|[\s,[{])!/.test(text) || /\r(?!\n)/.test(text)) return undefined;
  const { load, CORE_SCHEMA, mergeTag } = await import('js-yaml');
  schema ??= CORE_SCHEMA.withTags(mergeTag);
  try {
    return { data: load(text, { schema, maxAliases: 0 }) };
  } catch {
    return undefined;
  }
}

let schema: import('js-yaml').Schema | undefined;
