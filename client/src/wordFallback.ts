/**
 * No word suggestions in an adapter's front matter where the server offers nothing (test/client/wordFallback.test.ts).
 *
 * Why VS Code shows them (1.100, read in its workbench source): `provideSuggestionItems`
 * (editor/contrib/suggest/browser/suggest.ts) asks the completion providers in groups of equal selector
 * score, best first, and stops at the first group that adds an item. Our provider (`{ language:
 * 'markdown' }`, score 10) shares the first group with Markdown's own; the word-based provider
 * (editor/browser/services/editorWorkerService.ts, registered for `'*'`, score 5) is in a later group,
 * so it answers exactly when the first group answered nothing — with the words of the Markdown
 * documents. `editor.wordBasedSuggestions` is read for the language at the cursor, which in front
 * matter is the embedded `yaml` (markdown-basics maps `meta.embedded.block.frontmatter` to yaml): a
 * `[markdown]` default would not reach the front matter at all, a `[yaml]` one would turn words off in
 * every YAML file and every Markdown front matter, and no setting is scoped to a file name.
 *
 * So where the server answers nothing at a position inside the front matter of an adapter Markdown
 * file (its name, or the server's `mcpAql/isAdapter` for `mcpAql.files`), the client answers one item with an empty label (`WORD_STOP_LABEL`). It counts as the group's
 * answer, so the word-based group is not asked; and the suggest widget never shows it (a suggestion
 * without a label is invalid: `CompletionItem.isInvalid`, skipped by `CompletionModel`), so the user
 * sees nothing, or "No suggestions." after Ctrl+Space. Its kind is Text, the words' kind: a user who
 * hides words (`editor.suggest.showWords: false`) filters it out with them. Everywhere else — the
 * Markdown body, other Markdown, YAML and JSON adapters — nothing changes. Pinned in the real editor
 * (test/e2e/installed.test.ts). Pure: unit-tested (test/client/wordFallback.test.ts).
 */

/** The label of the item that stops the word fallback: empty, so the suggest widget never shows it. */
export const WORD_STOP_LABEL = '';

/** A fence line as the server reads front matter (service/parse/sourceFile.ts): `---`, trailing blanks allowed. */
const FENCE = /^---[ \t]*$/;

/**
 * Is `line` (0-based) inside the front matter — after the opening `---` of line 0 (a BOM allowed) and
 * before the closing `---` (or the end of the file when it is never closed)? Reads lines 0 to `line` only.
 */
export function inFrontMatter(lineAt: (i: number) => string, line: number): boolean {
  if (
    line < 1 ||
    !FENCE.test(
      lineAt(0)
        .replace(/^\uFEFF/, '')
        .replace(/\r$/, ''),
    )
  )
    return false;
  for (let i = 1; i <= line; i++) if (FENCE.test(lineAt(i).replace(/\r$/, ''))) return false;
  return true;
}

/** A Markdown adapter by its name, as the server reads names (service/parse/sourceFile.ts `ADAPTER_MD`). */
export const ADAPTER_MARKDOWN = /(?:^|\/)[^/]*-adapter\.md$/i;

/**
 * May this completion answer need the word stop? Only when the server answered no item in a Markdown
 * document, at a position inside its front matter; the caller then asks whether the file is an adapter
 * (its name, else the server, which matches `mcpAql.files`).
 */
export function mayNeedWordStop(answered: number, doc: { readonly languageId: string; lineAt(i: number): string }, line: number): boolean {
  return answered === 0 && doc.languageId === 'markdown' && inFrontMatter(i => doc.lineAt(i), line);
}
