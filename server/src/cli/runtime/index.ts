/**
 * The commands that meet a running MCP server: `watch` (a proxy between a host and the server, every
 * answer judged; watch/) and `probe` (calls that must fail, sent and judged; probe/), both through the
 * session interface (session/). Judging what crossed stays in the service (`service/runtime`).
 */
export { runProbe } from './probe/command';
export { runWatch } from './watch/command';
// dist/cli.js is also watch's judging thread's script.
import './watch/worker';
