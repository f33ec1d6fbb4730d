/** Generated hostile adapter texts (issue 20 items 8–12), shared by the service, CLI and LSP tests. */
import { yamlDoc } from './helpers';

/** `error_codes` with n anchors, each merging the (up to) three before it and adding its own description. */
export function fanOut(n: number): string {
  const lines = ['error_codes:', '  NOT_FOUND_A0: &a0 {category: NOT_FOUND, message_template: "x", details: {k: string}}'];
  for (let i = 1; i < n; i++) {
    const from = Array.from({ length: Math.min(3, i) }, (_, j) => `*a${i - Math.min(3, i) + j}`).join(', ');
    lines.push(`  NOT_FOUND_A${i}: &a${i}`, `    <<: [${from}]`, `    description: d${i}`);
  }
  return yamlDoc(...lines);
}
