/**
 * The upstream status the preview's simulator starts from: the code's own status, so a user's first
 * "Simulate" shows this code firing (or why it does not), whatever the adapter. In order: the statuses
 * the preview shows (`maps_from_http`, the mapping entry's key, the registry's), a status this file's
 * `error_mapping` maps to the code, the first status of the code's category (error-codes.md s3.2).
 * A `4XX` / `5XX` range starts at 400 / 500. Undefined when none is known.
 */
import type { FeatureContext } from '../model/context';
import type { Subject } from './subject';

function asStatus(v: number | string): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 100 && v <= 599 ? v : undefined;
  const range = /^([45])xx$/i.exec(v);
  return range ? Number(range[1]) * 100 : undefined;
}

export function simulatorStatus(ctx: FeatureContext, s: Subject): number | undefined {
  for (const v of s.httpStatus) {
    const st = asStatus(v);
    if (st !== undefined) return st;
  }
  for (const m of ctx.model.mappings) {
    if (m.code?.value !== s.code) continue;
    const st = asStatus(m.status.value);
    if (st !== undefined) return st;
  }
  const cat = s.category ? ctx.registry.category(s.category) : undefined;
  return cat?.http_range[0] ?? cat?.http_range_min;
}
