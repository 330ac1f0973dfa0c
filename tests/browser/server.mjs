// What the browser tests share: `fray serve` started on 127.0.0.1 with a SQLite file (and
// started again on the same address and file), and Debian's chromium launched headless.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..');
export const artifacts = join(here, 'artifacts');

/**
 * Starts the release `fray serve` on `addr` (default: a free port) with the SQLite file `db`
 * (default: a new one in a temporary directory); resolves to { base, addr, db, key, stop, kill }.
 */
export async function startServer({ addr = '127.0.0.1:0', db } = {}) {
  if (!db) db = join(mkdtempSync(join(tmpdir(), 'fray-browser-')), 'f.db');
  const bin = join(root, 'target', 'release', 'fray');
  const child = spawn(bin, ['serve', '--addr', addr, '--db', `sqlite://${db}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  let base, key;
  for await (const line of lines) {
    const listening = line.match(/listening on (http:\/\/[^/]+)\//);
    if (listening) base = listening[1];
    const gm = line.match(/\?key=([0-9a-f]+)/);
    if (gm) { key = gm[1]; break; }
  }
  assert.ok(base && key, 'fray serve printed its address and key');
  const exited = once(child, 'exit');
  return {
    base,
    addr: base.replace('http://', ''),
    db,
    key,
    stop: () => child.kill('SIGTERM'),
    /** Kills the process outright (no clean shutdown) and waits until it is gone. */
    kill: async () => { child.kill('SIGKILL'); await exited; },
  };
}

/** Debian's chromium (or $CHROMIUM), headless; no browser download. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox'],
  });
}

/** Creates a fight through the API; resolves to the created fight's links. */
export async function createFight(server, encounter, name, seed) {
  const response = await fetch(`${server.base}/api/v1/fights`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ encounter, name, seed }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return response.json();
}
