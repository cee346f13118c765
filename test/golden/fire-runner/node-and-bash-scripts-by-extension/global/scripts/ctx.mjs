import { writeFileSync } from 'node:fs';
writeFileSync(process.env.CHRYS_HOOK_RESULT, JSON.stringify({ context: [{ text: 'node:' + process.argv.slice(2).join(','), channel: 'tool_preface' }] }));
