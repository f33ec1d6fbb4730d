/**
 * yaml.alias-limit: an alias graph that expands past a budget (a "billion laughs"). The size of each
 * node's expansion is computed once per node over the alias DAG, so the check itself stays linear;
 * nothing else in the service expands aliases (peers.md s6: this is what kills yaml-language-server).
 */
import type { Node } from 'yaml';
import { isAlias, isMap, isPair, isSeq } from '../parse/yamlNodes';
import { Code } from '../codes';
import type { Section } from '../model/model';
import type { Check } from './types';
import { hasAliasNodes } from './aliasNodes';

/** Expanded nodes allowed in one document, at least; a document may expand to 10× its own size. */
const ALIAS_BUDGET = 10_000;

export const aliases: Check = {
  name: 'aliases',
  run({ model }, emit) {
    for (const s of model.sections) {
      if (!hasAliasNodes(s)) continue;
      for (const r of redefinedAnchors(s)) {
        emit({
          code: Code.YamlDuplicateAnchor,
          start: r.start,
          end: r.end,
          message: `Rename this anchor: '&${r.name}' is already defined on line ${lineOf(model.text, r.firstAt)}, so the aliases after this line mean this node and those before it the first one.`,
        });
      }
      for (const a of unresolved(s)) {
        emit({
          code: Code.YamlSyntax,
          start: s.base + a.range![0],
          end: s.base + a.range![1],
          message: `Alias '*${a.source}' refers to no anchor '&${a.source}' before it.`,
          data: { yamlCode: 'UNRESOLVED_ALIAS' },
        });
      }
      const over = firstOverBudget(s);
      if (over) {
        emit({
          code: Code.YamlAliasLimit,
          message: `Aliases expand this document to ${over.total === Infinity ? 'an endless cycle' : `${over.total} nodes`}, over the budget of ${over.budget} (a "billion laughs"); '*${over.alias.source}' alone stands for ${over.expanded === Infinity ? 'a cycle' : `${over.expanded} nodes`}. It is not expanded or checked further.`,
          start: s.base + over.alias.range![0],
          end: s.base + over.alias.range![1],
          data: { alias: over.alias.source, expanded: over.expanded, total: over.total, budget: over.budget },
        });
      }
    }
  },
};

/** Aliases with no anchor of that name before them in document order. */
function unresolved(s: Section): (Node & { source: string })[] {
  const seen = new Set<string>();
  const out: (Node & { source: string })[] = [];
  eachNode(s.doc.contents as Node | null, n => {
    const a = (n as { anchor?: string }).anchor;
    if (a) seen.add(a);
    if (!isAlias(n)) return true;
    if (!seen.has(n.source) && n.range) out.push(n as Node & { source: string });
    return false;
  });
  return out;
}

/**
 * Anchors defined a second time (test/service/silentSlips.test.ts): YAML allows it, and every later `*name` silently
 * means the new node. Only in documents that hold an alias (the only ones where it matters). The span is
 * the `&name` token: found before the node's start (a block collection starts at its first item).
 */
function redefinedAnchors(s: Section): { name: string; start: number; end: number; firstAt: number }[] {
  const first = new Map<string, number>();
  const out: { name: string; start: number; end: number; firstAt: number }[] = [];
  const token = (n: Node, name: string): number => {
    const at = n.range![0];
    const from = Math.max(0, at - 512);
    const i = s.text.lastIndexOf(`&${name}`, at);
    return i >= from ? i : at;
  };
  eachNode(s.doc.contents as Node | null, n => {
    if (isAlias(n)) return false;
    const a = (n as { anchor?: string }).anchor;
    if (a && n.range) {
      const at = token(n, a);
      const prev = first.get(a);
      if (prev === undefined) first.set(a, at);
      else out.push({ name: a, start: s.base + at, end: s.base + at + a.length + 1, firstAt: s.base + prev });
    }
    return true;
  });
  return out;
}

/**
 * Every node under `root` in document order (keys before values), to a depth of 1,000; `visit` returns
 * false to skip a node's children.
 */
function eachNode(root: Node | null, visit: (n: Node) => boolean): void {
  const walk = (n: Node | null, depth: number): void => {
    if (!n || depth > 1000 || !visit(n)) return;
    if (isMap(n) || isSeq(n))
      for (const it of n.items) {
        if (isPair(it)) {
          walk(it.key as Node | null, depth + 1);
          walk(it.value as Node | null, depth + 1);
        } else walk(it as Node | null, depth + 1);
      }
  };
  walk(root, 0);
}

/** The 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

interface Over {
  alias: Node & { source: string };
  expanded: number;
  total: number;
  budget: number;
}

function firstOverBudget(s: Section): Over | undefined {
  const anchors = new Map<string, Node>();
  const size = new Map<Node, number>();
  const active = new Set<Node>();
  let own = 0;
  let worst: { alias: Node & { source: string }; expanded: number } | undefined;
  const walk = (n: Node | null, depth: number): number => {
    if (!n) return 0;
    if (depth > 1000) return 1;
    if (isAlias(n)) {
      const target = anchors.get(n.source);
      const sz = target === undefined ? 1 : active.has(target) ? Infinity : (size.get(target) ?? 1);
      if (!worst || sz > worst.expanded) worst = { alias: n as Node & { source: string }, expanded: sz };
      return sz;
    }
    own++;
    active.add(n);
    let total = 1;
    if (isMap(n) || isSeq(n)) {
      for (const it of n.items) {
        if (isPair(it)) total += walk(it.key as Node | null, depth + 1) + walk(it.value as Node | null, depth + 1);
        else total += walk(it as Node | null, depth + 1);
      }
    }
    active.delete(n);
    size.set(n, total);
    const a = (n as { anchor?: string }).anchor;
    if (a) anchors.set(a, n);
    return total;
  };
  const expanded = walk(s.doc.contents as Node | null, 0);
  const budget = Math.max(ALIAS_BUDGET, own * 10);
  if (expanded > budget && worst) return { alias: worst.alias, expanded: worst.expanded, total: expanded, budget };
  return undefined;
}
