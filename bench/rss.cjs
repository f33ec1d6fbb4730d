// Preloaded into the CLI by the workspace bench: at exit, print peak RSS and CPU time (all threads).
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nBENCH ${JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })}\n`);
});
