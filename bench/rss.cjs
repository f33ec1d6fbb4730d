// Preloaded into the CLI by the workspace bench: at exit, print peak RSS and CPU time (all threads).
// Only the main thread writes (a preloaded module runs in every worker thread too).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a preload script is CommonJS
if (require('node:worker_threads').isMainThread)
  process.on('exit', () => {
    const u = process.resourceUsage();
    process.stderr.write(`\nBENCH ${JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })}\n`);
  });
