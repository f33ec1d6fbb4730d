/**
 * Messages lead with what to do (the Problems panel cuts the end, so "…Did you mean
 * RATE_LIMIT?" was hidden), and the hover on a placeholder that is no details key adds to the
 * diagnostic instead of repeating it. In all three forms.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const BODY = [
  'error_codes:',
  '  rateLimited:',
  '    category: RATE_LIMT',
  '  SHOP_SOLD_OUT:',
  '    category: CONFLICT',
  `    message_template: "Item {sku} and '{skus}' are sold out"`,
  '    details: { sku: string, skux: string }',
  '    descripton: Sold out',
  'error_mapping:',
  '  409:',
  '    code: SHOP_SOLD_OUTT',
  '    condition: "respnse.status == 409"',
  '',
].join('\n');

const JSON_BODY =
  JSON.stringify(
    {
      error_codes: {
        rateLimited: { category: 'RATE_LIMT' },
        SHOP_SOLD_OUT: {
          category: 'CONFLICT',
          message_template: "Item {sku} and '{skus}' are sold out",
          details: { sku: 'string', skux: 'string' },
          descripton: 'Sold out',
        },
      },
      error_mapping: { '409': { code: 'SHOP_SOLD_OUTT', condition: 'respnse.status == 409' } },
    },
    null,
    2,
  ) + '\n';

const LEADS: Record<string, string> = {
  'code.name-format': "Rename to 'RATE_LIMITED': ",
  'code.unknown-category': 'Did you mean RATE_LIMIT? ',
  'code.category-prefix': "Rename to 'CONFLICT_SHOP_SOLD_OUT': ",
  'template.unquoted-placeholder': "Write '{sku}': ",
  'template.unknown-placeholder': 'Did you mean {skux}? ',
  'schema.unknown-key': "Did you mean 'description'? ",
  'mapping.unknown-code': 'Did you mean SHOP_SOLD_OUT? ',
  'condition.unknown-root': 'Did you mean response.status? ',
};

for (const [form, uri, text] of [
  ['yaml', 'file:///w/shop.adapter.yaml', BODY],
  ['markdown', 'file:///w/shop-adapter.md', `---\n${BODY}---\n\n# Shop\n`],
  ['json', 'file:///w/shop.adapter.json', JSON_BODY],
] as const) {
  test(`${form}: each message starts with what to do`, () => {
    const ds = newService().validate(docOf(text, uri));
    const seen = new Map(ds.map(d => [String(d.code), String(d.message)]));
    for (const [code, lead] of Object.entries(LEADS)) {
      assert.ok(seen.has(code), `${code} reported`);
      assert.ok(seen.get(code)!.startsWith(lead), `${code}: ${seen.get(code)}`);
    }
  });

  test(`${form}: the hover on an unknown placeholder lists the keys to pick from, not the diagnostic again`, () => {
    const s = newService();
    const doc = docOf(text, uri);
    const d = s.validate(doc).find(x => x.code === 'template.unknown-placeholder')!;
    const h = s.hover(doc, { line: d.range.start.line, character: d.range.start.character + 2 });
    const md = (h?.contents as { value: string }).value;
    assert.equal(md, '`{skus}` — the keys `SHOP_SOLD_OUT` offers: `{sku}` (string), `{skux}` (string).');
    assert.doesNotMatch(md, /render literally/);
  });
}
