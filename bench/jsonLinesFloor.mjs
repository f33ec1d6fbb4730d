// The floor of `verify` and `infer` over a transcript (bench/runtimeBench.ts): a plain Node read of a JSON Lines file,
// readline over a read stream and JSON.parse of every line, nothing else.
// Usage: node --require bench/rss.cjs bench/jsonLinesFloor.mjs <file.jsonl>; prints the count of records.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

let records = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line.length === 0) continue;
  JSON.parse(line);
  records++;
}
process.stdout.write(`${records}\n`);
