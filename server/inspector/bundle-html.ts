// One self-contained HTML file: the bundle's JSON and the viewer inlined, and a content security
// policy that lets the page load nothing at all (no network, no server, opens from disk).
import fs from 'node:fs';
import path from 'node:path';
import type { BundlePayload } from './bundle';

/** The viewer's script or styles: plain browser files beside this one, read from the repository (the process cwd) once. */
const read: Partial<Record<'js' | 'css', string>> = {};
const viewer = (ext: 'js' | 'css') =>
  (read[ext] ??= fs.readFileSync(
    /*turbopackIgnore: true*/ path.join(process.cwd(), 'server/inspector', `bundle-viewer.${ext}`),
    'utf8',
  ));

/** JSON safe inside <script>: no "</script>", no "<!--", and the two line separators JS once rejected. */
export function scriptJson(x: unknown): string {
  return JSON.stringify(x)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function bundleHtml(payload: BundlePayload): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<title>${escapeText(payload.title)}</title>
<style>${viewer('css')}</style>
</head>
<body>
<header class="top"><h1 id="bundle-title"></h1><span class="meta" id="bundle-meta"></span><span id="bundle-goal"></span></header>
<main id="app"><noscript>This demo needs JavaScript to replay the episodes.</noscript></main>
<script type="application/json" id="bundle-data">${scriptJson(payload)}</script>
<script>${viewer('js')}</script>
</body>
</html>
`;
}

/** The bundle's payload read back from its HTML (tests, and anyone checking what a file holds). */
export function payloadOfHtml(html: string): BundlePayload {
  const m = /<script type="application\/json" id="bundle-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('not a demo bundle: no bundle-data script');
  return JSON.parse(m[1]) as BundlePayload;
}
