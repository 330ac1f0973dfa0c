// Browser test of the map's terrain on `fray serve`'s pages (Celesia's obstacles and difficult
// terrain, docs/serve.md): the GM's map draws the encounter's obstacle and difficult squares
// around the combatants, a player's page draws the terrain alone (no combatant's square); the
// GM raises a wall mid-fight through the API (`rule obstacle X Y …`), and both pages draw it
// (the player's after the WebSocket push); undone, it is gone again.
//
// Needs the release binary (`cargo build --release --bin fray`) and /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, createFight, launchBrowser, startServer } from './server.mjs';

// Hal and an orc with a wall (column 2, rows -1 to 1) between them and rubble at 1 2.
const ENCOUNTER = `schema = 1
ruleset = "celesia"
name = "A wall and rubble"
max_rounds = 5

[[sides]]
id = "heroes"
player = "alice"

[[sides]]
id = "orcs"

[[obstacle]]
squares = [[2, -1], [2, 0], [2, 1]]

[[difficult]]
squares = [[1, 2]]

[[combatants]]
id = "hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
weapon = "longsword"

[[combatants]]
id = "orc"
side = "orcs"
at = [4, 0]
monster = "orc"
`;

/** The `data-at` of every square of one kind the page's map draws, sorted. */
async function drawn(page, kind) {
  return page.evaluate((k) => [...document.querySelectorAll(`#map rect.${k}`)]
    .map((r) => r.getAttribute('data-at')).sort(), kind);
}

test('the map draws obstacles and difficult terrain, and the GM raises a wall', { timeout: 120_000 }, async () => {
  mkdirSync(artifacts, { recursive: true });
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const created = await createFight(server, ENCOUNTER, 'wall.toml', 3);
    const heroes = created.players.find((p) => p.role === 'side:heroes');
    const gm = await (await browser.newContext()).newPage();
    const player = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    await gm.goto(server.base + created.gm.url);
    await player.goto(server.base + heroes.url);
    await gm.waitForSelector('#map');
    await player.waitForSelector('#map');

    // The GM's map spans the combatants (x 0–4, y 0) and one square around: x -1–5, y -1–1, so
    // the rubble at 1 2 is outside it; the player's spans the terrain: x 1–2, y -1–2.
    assert.deepEqual(await drawn(gm, 'obstacle'), ['2,-1', '2,0', '2,1']);
    assert.deepEqual(await drawn(gm, 'difficult'), []);
    assert.match(await gm.locator('#map-desc').textContent(), /obstacles at 2,-1 2,0 2,1/);
    assert.deepEqual(await drawn(player, 'obstacle'), ['2,-1', '2,0', '2,1']);
    assert.deepEqual(await drawn(player, 'difficult'), ['1,2']);
    assert.equal(await player.locator('#map text', { hasText: /^H|^O/ }).count(), 0,
      'a player\'s map shows no combatant');
    assert.match(await player.locator('#map-title').textContent(), /x 1 to 2, y -1 to 2/);

    // The GM lets fray roll the initiatives (interventions come once round 1 is under way),
    // then raises two more squares of wall through the API.
    const auth = { authorization: `Bearer ${created.gm.token}`, 'content-type': 'application/json' };
    const viewNow = async () =>
      (await fetch(`${server.base}/api/v1/fights/${created.id}`, { headers: auth })).json();
    for (let i = 0; i < 4 && (await viewNow()).pending?.kind === 'roll'; i++) {
      const answered = await fetch(`${server.base}/api/v1/fights/${created.id}/answer`, {
        method: 'POST', headers: auth,
        body: JSON.stringify({ version: (await viewNow()).version, answer: 'r' }),
      });
      assert.equal(answered.status, 200, await answered.clone().text());
    }
    const view = await viewNow();
    assert.deepEqual(view.terrain, { obstacles: [[2, -1], [2, 0], [2, 1]], difficult: [[1, 2]] });
    const playerVersion = await player.locator('#version').getAttribute('value');
    const raised = await fetch(`${server.base}/api/v1/fights/${created.id}/intervene`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ version: view.version, command: 'rule obstacle 2 2 2 -2' }),
    });
    assert.equal(raised.status, 200, await raised.clone().text());
    // Wait for what the page draws, not for its version to move: an update from the rolls
    // before the ruling may still be arriving and move the version first.
    await player.waitForFunction(() => document.querySelectorAll('#map rect.obstacle').length === 5);
    assert.deepEqual(await drawn(player, 'obstacle'), ['2,-1', '2,-2', '2,0', '2,1', '2,2']);
    assert.notEqual(await player.locator('#version').getAttribute('value'), playerVersion);
    await gm.reload();
    await gm.waitForSelector('#map');
    assert.deepEqual(await drawn(gm, 'obstacle'), ['2,-1', '2,0', '2,1'],
      'the GM\'s map stays around the combatants');
    mkdirSync(artifacts, { recursive: true });
    await gm.screenshot({ path: join(artifacts, 'terrain-gm.png'), fullPage: true });
    await player.screenshot({ path: join(artifacts, 'terrain-player.png'), fullPage: true });

    // A wall on the orc's square (wherever it went) is refused (422) and changes nothing.
    const now = await viewNow();
    const [x, y] = now.combatants.find((c) => c.id === 'orc').at;
    const refused = await fetch(`${server.base}/api/v1/fights/${created.id}/intervene`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ version: now.version, command: `rule obstacle ${x} ${y}` }),
    });
    assert.equal(refused.status, 422);
    assert.match((await refused.json()).error, /under orc's space/);
    assert.equal((await viewNow()).version, now.version, 'a refused ruling changes nothing');

    // Undone, the new squares are gone from the player's page.
    await gm.getByRole('button', { name: 'Undo' }).click();
    await player.waitForFunction(() => document.querySelectorAll('#map rect.obstacle').length === 3);
    assert.deepEqual(await drawn(player, 'obstacle'), ['2,-1', '2,0', '2,1']);
  } finally {
    await browser.close();
    server.stop();
  }
});
