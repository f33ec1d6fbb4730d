// The README inside the .vsix (dist/README.md, packaged with `vsce package --readme-path`): VS Code's
// extension page cannot show relative pictures of a locally installed extension, and vsce would point
// them at a repository that may not exist. So the pictures are inlined (data: URIs: they show offline,
// in any install) and relative links go to the repository. The repository's README.md is unchanged.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function vsixReadme(readme, repoUrl, readFile) {
  const base = repoUrl.replace(/\.git$/, '').replace(/\/$/, '') + '/blob/main/';
  return readme
    .replace(
      /!\[([^\]]*)\]\((?!https?:|data:)([^)\s]+\.png)\)/g,
      (_, alt, path) => `![${alt}](data:image/png;base64,${readFile(path).toString('base64')})`,
    )
    .replace(/(?<!!)\[([^\]]*)\]\((?!https?:|data:|#|mailto:|command:)([^)\s]+)\)/g, (_, text, path) => `[${text}](${base}${path})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = join(root, 'dist', 'README.md');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    vsixReadme(readFileSync(join(root, 'README.md'), 'utf8'), pkg.repository.url, p => readFileSync(join(root, p))),
  );
}
