/** The error reference (issue 25, `mcp-aql-errors docs`): contract → markdown or one self-contained HTML page. */
export { referenceHtml } from './html';
export { referenceMarkdown } from './markdown';
export { buildReference, codeAnchor, type Reference, type ReferenceCode } from './reference';
