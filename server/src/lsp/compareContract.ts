/**
 * `mcpAql/compareContract` (docs/contract-diff.md): the workspace's error contract now (open documents' live text,
 * other files from disk) against its files at a git revision (read with node/gitRevision: no checkout,
 * renames followed), classified by the service; the report as markdown and each change with the place
 * in a workspace file that made it. A folder that is not in a git repository answers with an error.
 */
import { realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { CompareContract, type CompareContractResult, type ContractChangeItem } from '../protocol';
import { changesMarkdown, DEFAULT_MAX_FILE_SIZE, type ContractChange, type DiffInput } from '../service';
import { GitError, listFiles, readBlob, renamesSince, repositoryTop, resolveRevision } from '../node/gitRevision';
import { readRegularFile } from '../node/readRegularFile';
import { walkTree } from '../node/walkTree';
import type { ServerContext } from './context';

const CANDIDATE = /\.(?:ya?ml|json|md|markdown)$/i;
const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e']);
const SKIP_SEGMENT = /(?:^|\/)(?:node_modules|\.git|dist|out|\.cache|\.e2e)\//;
const slash = (p: string) => p.split(sep).join('/');
const decode = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b);

export function registerCompareContract(ctx: ServerContext): void {
  ctx.connection.onRequest(CompareContract.type, async p => {
    try {
      return await compareContract(ctx, p.revision);
    } catch (e) {
      if (e instanceof GitError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      throw e;
    }
  });
}

export async function compareContract(ctx: ServerContext, revision: string): Promise<CompareContractResult> {
  const before: DiffInput[] = [];
  const after: DiffInput[] = [];
  const labels = new Map<string, string>();
  /** Old file uri → the workspace file it is now (renames followed). */
  const now = new Map<string, string>();
  const seen = new Set<string>();
  const folders = ctx.folders().filter(f => f.startsWith('file:'));
  if (!folders.length) throw new GitError('no workspace folder to compare');
  for (const folderUri of folders) {
    const folder = fileURLToPath(folderUri);
    const commit = resolveRevision(revision, folder);
    const top = realpathSync(repositoryTop(folder));
    const renames = renamesSince(commit, ['.'], folder);
    for (const f of listFiles(commit, ['.'], folder)) {
      if (!CANDIDATE.test(f.path) || SKIP_SEGMENT.test(`/${f.path}`)) continue;
      const uri = `mcp-aql-git://${commit}/${f.path.split('/').map(encodeURIComponent).join('/')}`;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const key = renames.get(f.path) ?? f.path;
      const current = pathToFileURL(join(top, key)).href;
      const opts = await ctx.opts(current);
      const bytes = readBlob(f.blob, folder);
      if (opts.ignored) continue;
      if (!bytes) throw new GitError(`${revision}:${f.path}: larger than 8 MiB; cannot compare`);
      before.push({ doc: TextDocument.create(uri, 'yaml', 1, decode(bytes)), fileKey: key, opts });
      labels.set(uri, `${revision}:${f.path}`);
      now.set(uri, current);
    }
    const real = realpathSync(folder);
    for (const { path } of walkTree(real, { root: real, skip: SKIP, candidate: n => CANDIDATE.test(n) }, () => {})) {
      const uri = pathToFileURL(path).href;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const open = ctx.documents.get(uri);
      let text = open?.getText();
      if (text === undefined) {
        const r = readRegularFile(path);
        if (!r.ok) continue;
        text = decode(r.bytes);
      }
      const opts = await ctx.opts(uri);
      if (opts.ignored) continue;
      after.push({ doc: TextDocument.create(uri, 'yaml', open?.version ?? 0, text), fileKey: slash(relative(top, path)), opts });
      labels.set(uri, slash(relative(real, path)));
    }
  }
  // An adapter the service will not parse (over maxFileSize) would look removed: refuse rather than report that.
  for (const { doc, opts } of [...before, ...after]) {
    const max = opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    if (doc.getText().length > max && ctx.service.isAdapter(doc, opts))
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `${labels.get(doc.uri) ?? doc.uri}: larger than maxFileSize (${max}); cannot compare`,
      );
  }
  const changes = ctx.service.diffContracts(before, after);
  const title = `${revision} → working tree`;
  return {
    title,
    markdown: changesMarkdown(changes, labels, title),
    changes: changes.map(c => item(c, now, new Set(after.map(a => a.doc.uri)))),
  };
}

const FIRST_LINE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function item(c: ContractChange, now: ReadonlyMap<string, string>, current: ReadonlySet<string>): ContractChangeItem {
  const base = { rule: c.rule, severity: c.severity, message: c.message };
  if (c.at?.uri.startsWith('file:')) return { ...base, uri: c.at.uri, range: c.at.range };
  const held = c.was && now.get(c.was.uri);
  return held && current.has(held) ? { ...base, uri: held, range: FIRST_LINE } : base;
}
