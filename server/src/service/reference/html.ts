/**
 * The error reference as one self-contained HTML file: no script, no external resource (a CSP of
 * `default-src 'none'` with inline styles only), readable without JavaScript; every adapter string
 * HTML-escaped, anchors from `codeAnchor` (already safe characters only).
 */
import { visibleControls } from '../util/markdownText';
import { detailNotes, detailType, shadowNote } from './markdown';
import type { Reference, ReferenceCode } from './reference';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML-escaped, with control and bidi characters made visible (`\u001b`: no text reorders what is around it). */
export const esc = (s: string): string => visibleControls(s).replace(/[&<>"']/g, c => ESC[c]!);

/** A block of text: its own line breaks kept, everything else as `esc`. */
const escLines = (s: string): string => s.split('\n').map(esc).join('\n');

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
h1{font-size:1.8rem}h2{border-bottom:1px solid #d0d7de;padding-bottom:.3rem;margin-top:2.5rem}
section.code{border:1px solid #d0d7de;border-radius:6px;padding:0 1rem 1rem;margin:1.5rem 0}
section.code:target{border-color:#0969da;box-shadow:0 0 0 3px #0969da33}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}h3 code{font-size:1.05rem;font-weight:600}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;border-radius:4px}
.tag{display:inline-block;border-radius:1rem;padding:0 .6rem;font-size:.8rem;background:#ddf4ff;color:#0550ae;margin-right:.3rem}
.warning{background:#fff8c5;color:#7d4e00}details summary{cursor:pointer}
@media (prefers-color-scheme: dark){body{background:#0d1117;color:#e6edf3}th,pre{background:#161b22}th,td,section.code,h2{border-color:#30363d}}
`;

const row = (k: string, v: string) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`;

function codeSection(c: ReferenceCode): string {
  const details = c.details.length
    ? `<table><thead><tr><th>key</th><th>type</th><th>required</th><th>notes</th></tr></thead><tbody>${c.details
        .map(
          d =>
            `<tr><td><code>${esc(d.name)}</code></td><td>${esc(detailType(d))}</td><td>${d.required ? 'yes' : 'no'}</td><td>${esc(detailNotes(d))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p>No details keys.</p>';
  const examples = c.examples
    .map(
      e =>
        `<details${e.id === 'mcp-aql' ? ' open' : ''}><summary>${esc(e.title)} <small>— ${esc(e.channel)}</small></summary><pre><code>${escLines(JSON.stringify(e.envelope, null, 2))}</code></pre></details>`,
    )
    .join('\n');
  return `<section class="code" id="${c.anchor}">
<h3><a href="#${c.anchor}"><code>${esc(c.code)}</code></a> <span class="tag">${esc(c.category ?? 'no category')}</span>${c.kind === 'warning' ? '<span class="tag warning">warning</span>' : ''}${c.source === 'registry' ? '<span class="tag">registry</span>' : ''}</h3>
${c.description ? `<p>${esc(c.description)}</p>` : ''}
<table><tbody>
${row('HTTP statuses', c.statuses.length ? esc(c.statuses.join(', ')) : '—')}${c.shadowed.length ? `\n${row('Never reached', esc(c.shadowed.map(shadowNote).join('; ')))}` : ''}
${row('Message template', c.template ? `<code>${esc(c.template)}</code>` : '—')}
${row('Recovery', c.recovery ? esc(c.recovery) : '—')}
${c.retry ? row('Retry', `<code>${esc(c.retry.value)}</code>${c.retry.declared ? '' : " (the category's default)"}`) : ''}
</tbody></table>
<h4>Details</h4>
${details}
<h4>Example envelopes</h4>
${examples}
</section>`;
}

export function referenceHtml(r: Reference): string {
  const mapping = r.mappings
    .map(m => {
      const rows = m.rows
        .map(
          x =>
            `<tr><td>${esc(x.status)}</td><td>${x.condition ? `<code>${esc(x.condition)}</code>` : ''}</td><td>${
              x.code ? (x.anchor ? `<a href="#${x.anchor}"><code>${esc(x.code)}</code></a>` : `<code>${esc(x.code)}</code>`) : '—'
            }</td><td>${x.template ? `<code>${esc(x.template)}</code>` : ''}</td></tr>`,
        )
        .join('\n');
      return `<h3>${esc(m.adapter)}</h3>\n${
        m.rows.length
          ? `<table><thead><tr><th>HTTP status</th><th>condition</th><th>code</th><th>message template</th></tr></thead><tbody>\n${rows}\n</tbody></table>`
          : '<p>No error_mapping.</p>'
      }`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(r.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${esc(r.title)}</h1><p>Generated by mcp-aql-errors ${esc(r.version)} from ${r.sources.map(s => `<code>${esc(s)}</code>`).join(', ')}.</p></header>
<nav aria-label="Codes"><h2>Codes</h2><ul>
${r.codes.map(c => `<li><a href="#${c.anchor}"><code>${esc(c.code)}</code></a> — ${esc(c.category ?? 'no category')}</li>`).join('\n')}
</ul></nav>
<main>
${r.codes.map(codeSection).join('\n')}
<h2 id="error-mapping">Error mapping</h2>
${mapping}
</main>
</body>
</html>
`;
}
