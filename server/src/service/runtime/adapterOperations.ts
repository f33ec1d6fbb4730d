/** The operations an adapter declares (`operations: {read: [{name, params}]}`), for the probe's plan. */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { AdapterModel } from '../model/model';
import type { AdapterOperation, AdapterParam } from './probeCases';

const str = (n: unknown): string | undefined => (isScalar(n) && typeof n.value === 'string' ? n.value : undefined);

function param(name: string, v: unknown): AdapterParam {
  if (!isMap(v)) return { name, type: str(v), required: false };
  const req = v.get('required', true);
  const en = v.get('enum', true);
  return {
    name,
    type: str(v.get('type', true)),
    required: isScalar(req) && req.value === true,
    enum: isSeq(en) ? en.items.flatMap(i => (isScalar(i) ? [i.value] : [])) : undefined,
  };
}

export function adapterOperations(model: AdapterModel): AdapterOperation[] {
  const out: AdapterOperation[] = [];
  for (const s of model.sections) {
    const ops = s.doc.get('operations', true) as Node | undefined;
    if (!isMap(ops)) continue;
    for (const g of ops.items) {
      const group = str(g.key) ?? (isScalar(g.key) ? String(g.key.value) : '');
      if (!isSeq(g.value)) continue;
      for (const op of g.value.items) {
        if (!isMap(op)) continue;
        const name = str(op.get('name', true));
        if (!name) continue;
        const ps = op.get('params', true);
        const params = isMap(ps) ? ps.items.flatMap(p => (isScalar(p.key) ? [param(String(p.key.value), p.value)] : [])) : [];
        out.push({ name, group, params });
      }
    }
  }
  return out;
}
