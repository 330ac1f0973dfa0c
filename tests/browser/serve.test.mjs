// Browser tests of `fray serve`'s pages: a GM and a player, in two browser contexts of Debian's
// chromium, play a fight to the end through the pages; the GM undoes an answer and both pages
// update; the player's page never shows a foe's hit points, in the DOM or in the WebSocket
// frames it receives. Screenshots of both pages go to tests/browser/artifacts/.
//
// Needs the release binary (`cargo build --release`) and /usr/bin/chromium (or $CHROMIUM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, launchBrowser, startServer } from './server.mjs';

// Two fighters played by Alice against two orcs of 77 hit points that fray plays for the GM.
const ENCOUNTER = `schema = 1
ruleset = "cnc"
name = "Two fighters against two orcs"
max_rounds = 30

[[sides]]
id = "heroes"
name = "The heroes"
player = "alice"

[[sides]]
id = "orcs"
name = "The orcs"

[[combatants]]
id = "fighter"
name = "Fighter"
side = "heroes"
count = 2
at = [[0, 0], [0, 1]]
class = "fighter"
level = 3
hp = 24
scores = { str = 16, dex = 12, con = 14, int = 10, wis = 10, cha = 10 }
weapon = "long sword"
armor = "chain mail"
shield = "medium shield"

[[combatants]]
id = "orc"
side = "orcs"
count = 2
at = [[2, 0], [2, 1]]
monster = "orc"
hp = 17
`;

test('a GM and a player play a fight to the end in two browsers', { timeout: 180_000 }, async () => {
  mkdirSync(artifacts, { recursive: true });
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const created = await (await fetch(`${server.base}/api/v1/fights`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ encounter: ENCOUNTER, name: 'duel.toml', seed: 4 }),
    })).json();
    const heroes = created.players.find((p) => p.role === 'side:heroes');

    const gmContext = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const playerContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const gm = await gmContext.newPage();
    const player = await playerContext.newPage();
    const playerFrames = [];
    player.on('websocket', (ws) => ws.on('framereceived', (f) => playerFrames.push(String(f.payload))));
    await gm.goto(server.base + created.gm.url);
    await player.goto(server.base + heroes.url);
    await player.waitForTimeout(300);
    assert.ok(playerFrames.length >= 1, 'the player page opened its WebSocket');

    const orcHpShown = async () => player.evaluate(() =>
      [...document.querySelectorAll('#combatants tbody tr')]
        .filter((tr) => tr.textContent.includes('(orc-'))
        .some((tr) => tr.children[2].textContent.trim() !== '?'));

    // Play: whoever's page shows a request answers with its first button.
    let undone = false;
    for (let step = 0; step < 400; step++) {
      const over = async (p) => (await p.locator('#panel').textContent()).includes('the fight is over');
      if (await over(gm)) break;
      assert.equal(await orcHpShown(), false, 'the player page shows an orc\'s hit points');
      const page = (await player.locator('#asked').count()) > 0 ? player : gm;
      if ((await page.locator('#asked').count()) === 0) { await page.waitForTimeout(100); continue; }
      const before = await page.locator('#version').getAttribute('value');
      await page.locator('#asked ~ div button, #asked ~ button').first().click();
      await page.waitForFunction((v) => document.querySelector('#version')?.value !== v, before);
      // Once, after a player's answer: the GM undoes it; both pages go back.
      if (!undone && page === player) {
        undone = true;
        await player.screenshot({ path: join(artifacts, 'player.png'), fullPage: true });
        await gm.screenshot({ path: join(artifacts, 'gm.png'), fullPage: true });
        const playerVersion = await player.locator('#version').getAttribute('value');
        await gm.reload();
        await gm.getByRole('button', { name: 'Undo' }).click();
        await player.waitForFunction((v) => document.querySelector('#version')?.value !== v, playerVersion);
        assert.ok((await player.locator('#asked').count()) > 0, 'the undone request is asked again');
      }
    }
    assert.ok(undone, 'the player answered at least once');
    assert.match(await gm.locator('#panel').textContent(), /the fight is over/);
    await player.waitForFunction(() => document.querySelector('#panel').textContent.includes('the fight is over'));
    await gm.screenshot({ path: join(artifacts, 'gm-end.png'), fullPage: true });
    await player.screenshot({ path: join(artifacts, 'player-end.png'), fullPage: true });

    // No frame the player received carries an orc's hit points or armour.
    for (const text of playerFrames) {
      const frame = JSON.parse(text);
      for (const c of frame.view.combatants) {
        if (c.side === 'orcs') assert.equal(c.hp, undefined, `a frame showed ${c.id}'s hit points`);
      }
      // An orc's private facts in the events: its armour (`versus`, `defense_modifiers`) when
      // attacked, its hit points (`hp`) when hurt (fray_core::audience::SHOWN).
      for (const e of frame.view.events) {
        const about = e.target ?? e.who;
        if (typeof about === 'string' && about.startsWith('orc-')) {
          for (const field of ['versus', 'defense_modifiers', 'hp', 'needed']) {
            assert.equal(e[field], undefined, `a frame showed ${about}'s ${field}: ${JSON.stringify(e)}`);
          }
        }
      }
    }
    assert.ok(playerFrames.length > 3, `the player was pushed updates (${playerFrames.length})`);
  } finally {
    await browser.close();
    server.stop();
  }
});
