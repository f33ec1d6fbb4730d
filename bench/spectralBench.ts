/**
 * The side-by-side runs of the workspace bench (docs/performance.md): the `yaml` floor (bench/yamlFloor.mjs: read
 * and `parseDocument` every adapter on 2 worker threads) and Spectral with an equivalent ruleset
 * (bench/spectral/ruleset.js), on the same generated monorepo as our CLI. Spectral is installed, pinned,
 * under bench/work/spectral (git-ignored), outside the project's dependencies; never used by a test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
export const SPECTRAL_VERSION = '6.16.3';
const PREFIX = join(ROOT, 'bench', 'work', 'spectral');
const CLI = join(PREFIX, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');

export interface ProcessRun {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  exit: number;
  stdout: string;
  /** Standard error, the preload's BENCH line left out. */
  stderr: string;
}

/** Run `node --require bench/rss.cjs …args` in `cwd`: wall time, CPU time and peak RSS of every thread. */
export function runNode(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ['--require', join(ROOT, 'bench', 'rss.cjs'), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    p.stdout.on('data', d => (out += d));
    p.stderr.on('data', d => (err += d));
    p.on('error', reject);
    p.on('close', code => {
      const m = /BENCH (\{.*\})/.exec(err);
      const u = m ? (JSON.parse(m[1]!) as { maxRssKb: number; cpuMs: number }) : { maxRssKb: NaN, cpuMs: NaN };
      resolve({
        wallMs: performance.now() - t0,
        cpuMs: u.cpuMs,
        maxRssMb: u.maxRssKb / 1024,
        exit: code ?? -1,
        stdout: out,
        stderr: err.replace(/\nBENCH \{.*\}\n?/, ''),
      });
    });
  });
}

/** The floor: every adapter read and parsed with `yaml`, 2 threads. */
export const runFloor = (dir: string): Promise<ProcessRun> => runNode([join(ROOT, 'bench', 'yamlFloor.mjs'), dir, '2']);

/** Installs the pinned Spectral CLI under bench/work/spectral when it is not there (npm, no scripts, no telemetry). */
export function ensureSpectral(): boolean {
  if (existsSync(CLI)) return true;
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', PREFIX, '--no-audit', '--no-fund', '--ignore-scripts', `@stoplight/spectral-cli@${SPECTRAL_VERSION}`],
      { stdio: 'inherit', env: { ...process.env, SCARF_ANALYTICS: 'false' } },
    );
  } catch {
    return false;
  }
  return existsSync(CLI);
}

export interface SpectralRun extends ProcessRun {
  /** Problems of the ruleset's rules (Spectral's own parser notes left out), by rule. */
  problems: Record<string, number>;
}

/** Spectral over the three forms of adapter files of `dir`, with bench/spectral/ruleset.js. */
export async function runSpectral(dir: string): Promise<SpectralRun> {
  const globs = ['**/*.adapter.yaml', '**/*.adapter.json', '**/*-adapter.md'].map(g => join(dir, g));
  const r = await runNode([CLI, 'lint', '-r', join(ROOT, 'bench', 'spectral', 'ruleset.js'), '-f', 'json', '--quiet', ...globs], ROOT, {
    ...process.env,
    MCP_AQL_ROOT: ROOT,
    MCP_AQL_WS: dir,
    SCARF_ANALYTICS: 'false',
  });
  const problems: Record<string, number> = {};
  try {
    for (const p of JSON.parse(r.stdout) as { code: string }[])
      if (p.code.startsWith('mcp-aql-')) problems[p.code] = (problems[p.code] ?? 0) + 1;
  } catch {
    problems['unparsable output'] = 1;
  }
  return { ...r, stdout: '', problems };
}
