// The only place that builds the preview page's HTML: CSP default-src 'none', scripts by nonce, assets via asWebviewUri.
import * as vscode from 'vscode';

/** 128 random bits, base64 (Web Crypto: the same in Node and in the browser build). */
function makeNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function shell(webview: vscode.Webview, root: vscode.Uri): string {
  const nonce = makeNonce();
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(root, ...p)).toString();
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join(
    '; ',
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<link rel="stylesheet" href="${asset('client', 'media', 'preview.css')}"><title>Error Envelope Preview</title></head>` +
    `<body><main id="app" aria-live="polite"></main><script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script></body></html>`
  );
}
