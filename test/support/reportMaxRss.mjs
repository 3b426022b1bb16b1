// Preloaded with NODE_OPTIONS=--import=.../reportMaxRss.mjs: when the process exits, writes its
// peak resident set size to stderr as "maxrss-kb N", for tests and benchmarks of memory.
process.on('exit', () => {
  process.stderr.write(`maxrss-kb ${process.resourceUsage().maxRSS}\n`);
});
