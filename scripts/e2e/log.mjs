// The E2E runner's progress lines on stderr, stamped with the seconds since it started, and sleep.
export const T0 = Date.now();
const since = () => `${((Date.now() - T0) / 1000).toFixed(1)}s`;
export const say = (msg) => process.stderr.write(`[e2e ${since()}] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
