// The README inside the .vsix (packaged by scripts/package-vsix.mjs). VS Code's extension page allows
// pictures from `https:` and `data:` only (its CSP), so the relative pictures of the repository's README
// cannot show for an extension installed from a .vsix, and inlining them as data: URIs made the .vsix
// 1.5 MB heavier. Someone reading this page has the extension in front of them: the pictures are left
// out (the Features section links to the repository's README, where they are) and relative links go to
// the repository. The repository's README.md is unchanged.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function vsixReadme(readme, repoUrl) {
  const repo = repoUrl.replace(/\.git$/, '').replace(/\/$/, '');
  const base = `${repo}/blob/main/`;
  const pictures = /^!\[[^\]]*\]\((?!https?:|data:)[^)\s]+\)\s*$/;
  let dropped = 0;
  const lines = [];
  for (const line of readme.split('\n')) {
    if (pictures.test(line)) {
      dropped++;
      if (lines.at(-1) === '') lines.pop();
      continue;
    }
    lines.push(line);
  }
  let out = lines.join('\n');
  if (dropped)
    out = out.replace(/^## Features\n/m, `## Features\n\nPictures of each feature: the [README in the repository](${repo}#features).\n`);
  return out.replace(
    /(?<!!)\[([^\]]*)\]\((?!https?:|data:|#|mailto:|command:)([^)\s]+)\)/g,
    (_, text, path) => `[${text}](${base}${path})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = join(root, 'dist', 'README.md');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, vsixReadme(readFileSync(join(root, 'README.md'), 'utf8'), pkg.repository.url));
}
