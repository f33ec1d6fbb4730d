// The floor for a stdio proxy written in Node (bench/proxyBench.ts): spawn the server, pipe both
// streams, nothing else. What `watch` adds beyond this is its own (loading, checking); what this adds
// over a direct connection is the extra process and its two pipe hops.
'use strict';
const { spawn } = require('node:child_process');
const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('close', code => (process.exitCode = code ?? 1));
