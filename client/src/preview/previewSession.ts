// One Error Envelope Preview page (host side), in the side bar view or in an editor panel: follows the
// cursor, asks the server for the preview through typed requests, relays the page's edits and
// simulator runs. Builds no envelope itself.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import {
  GetRegistry,
  PreviewEnvelope,
  Simulate,
  VerifyResponse,
  type EnvelopePreview,
  type PreviewParams,
  type Registry,
  type SimulateParams,
} from '../../../server/src/protocol';
import { send } from '../requests';
import { shell } from './html';
import { parseFromWebview, type ToWebview } from './messages';

/** Where the page lives: a WebviewView (side bar) or a WebviewPanel (beside the editor). */
interface PreviewHost {
  readonly webview: vscode.Webview;
  readonly visible: boolean;
}

export class PreviewSession implements vscode.Disposable {
  private target: { uri: string; position?: vscode.Position; code?: string } | undefined;
  private readonly samples = new Map<string, Record<string, unknown>>();
  private mirror = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private readonly sub: vscode.Disposable;

  constructor(
    root: vscode.Uri,
    private readonly client: BaseLanguageClient,
    private readonly host: PreviewHost,
  ) {
    host.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'dist'), vscode.Uri.joinPath(root, 'client', 'media')],
    };
    host.webview.html = shell(host.webview, root);
    this.sub = host.webview.onDidReceiveMessage(raw => void this.onMessage(raw));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sub.dispose();
  }

  /** From the cursor (debounced) or a CodeLens / command. */
  followEditor(delay = 150): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const e = vscode.window.activeTextEditor;
      if (!e) return;
      this.target = { uri: e.document.uri.toString(), position: e.selection.active };
      void this.refresh();
    }, delay);
  }

  /** Point the page at a file (and a code or an offset in it), then render. */
  async show(uri: string, code?: string, offset?: number): Promise<void> {
    const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri);
    const position = doc && offset !== undefined ? doc.positionAt(offset) : undefined;
    this.target = { uri, position, code: position ? undefined : code };
    await this.refresh();
  }

  async refresh(): Promise<void> {
    if (!this.host.visible || !this.target) return;
    const t = this.target;
    const params: PreviewParams = {
      uri: t.uri,
      position: t.code ? undefined : t.position,
      code: t.code,
      samples: this.samples.get(this.key()),
      mirrorConfirmation: this.mirror,
    };
    let preview: EnvelopePreview | null = null;
    try {
      preview = await send(this.client, PreviewEnvelope.type, params);
    } catch {
      /* server restarting */
    }
    if (preview) {
      this.post({ kind: 'render', uri: t.uri, file: vscode.Uri.parse(t.uri).path.split('/').pop() ?? t.uri, preview, mirror: this.mirror });
      return;
    }
    let registry: Registry | undefined;
    try {
      registry = await send(this.client, GetRegistry.type);
    } catch {
      /* ignore */
    }
    if (registry) {
      this.post({
        kind: 'registry',
        reason: 'The cursor is on no error code. Pick a registry code to preview it.',
        codes: registry.codes.map(c => ({ code: c.code, category: c.category, kind: c.kind, template: c.message_template })),
      });
    } else this.post({ kind: 'empty', reason: 'The MCP-AQL language server is not running.' });
  }

  private key(): string {
    return `${this.target?.uri}#${this.target?.code ?? ''}`;
  }

  private post(m: ToWebview): void {
    void this.host.webview.postMessage(m);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = parseFromWebview(raw);
    if (!m) return;
    switch (m.kind) {
      case 'ready':
        this.followEditor(0);
        break;
      case 'setSample': {
        let value: unknown = m.value;
        try {
          value = JSON.parse(m.value);
        } catch {
          /* a plain string */
        }
        const s = { ...(this.samples.get(this.key()) ?? {}), [m.key]: value };
        this.samples.set(this.key(), s);
        await this.refresh();
        break;
      }
      case 'resetSamples':
        this.samples.delete(this.key());
        await this.refresh();
        break;
      case 'toggleMirror':
        this.mirror = m.on;
        await this.refresh();
        break;
      case 'reveal':
        if (this.target) {
          this.target = { uri: this.target.uri, code: m.code };
          await this.refresh();
        }
        break;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        void vscode.window.setStatusBarMessage('MCP-AQL: copied to the clipboard', 2000);
        break;
      case 'verify':
        try {
          this.post({
            kind: 'verification',
            result: await send(this.client, VerifyResponse.type, { uri: this.target?.uri, text: m.text }),
          });
        } catch (e) {
          this.post({ kind: 'verification', result: null, error: String(e) });
        }
        break;
      case 'simulate': {
        if (!this.target) return;
        let body: unknown, headers: Record<string, string> | undefined;
        try {
          body = m.body.trim() ? JSON.parse(m.body) : undefined;
          headers = m.headers.trim() ? (JSON.parse(m.headers) as Record<string, string>) : undefined;
          if (headers && (typeof headers !== 'object' || Array.isArray(headers))) throw new Error('headers must be a JSON object');
        } catch (e) {
          this.post({ kind: 'simulation', result: null, error: `Not JSON: ${(e as Error).message}` });
          return;
        }
        const p: SimulateParams = {
          uri: this.target.uri,
          status: m.status,
          ...(this.target.position ? { position: { line: this.target.position.line, character: this.target.position.character } } : {}),
          body,
          headers,
          samples: this.samples.get(this.key()),
          mirrorConfirmation: this.mirror,
        };
        try {
          this.post({ kind: 'simulation', result: await send(this.client, Simulate.type, p) });
        } catch (e) {
          this.post({ kind: 'simulation', result: null, error: String(e) });
        }
        break;
      }
    }
  }
}
