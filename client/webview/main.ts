// The preview page script (issue 4). Runs in the webview; DOM only.
export {};
