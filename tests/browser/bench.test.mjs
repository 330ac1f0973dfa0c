// The "Done when" of issue 18, in two browsers: a GM (1000 px) and the fighters' player (a
// phone, 360 px) run examples/cnc/bench.toml through their pages. The player answers by
// buttons and by typing in the command bar; the GM undoes one of the player's answers (both
// pages go back), reads the odds and "who wins from here", lets fray play a fighter and takes
// it back; the server is killed (SIGKILL) and started again on the same SQLite file and
// address, both pages resume where they were (their WebSockets reconnect) and the fight is
// played to its end. Along the way: the player's page never shows an orc's hit points (DOM and
// WebSocket frames), nothing overflows 360 px, the GM's map lists every square, and the
// keyboard reaches every control with a visible focus. Screenshots go to tests/browser/artifacts/.
//
// Needs the release binary (`cargo build --release`) and /usr/bin/chromium (or $CHROMIUM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, createFight, launchBrowser, root, startServer } from './server.mjs';

const BENCH = readFileSync(join(root, 'examples', 'cnc', 'bench.toml'), 'utf8');

test('the GM and a player run the bench to the end, with an undo and a server restart', { timeout: 420_000 }, async () => {
  mkdirSync(artifacts, { recursive: true });
  let server = await startServer();
  const browser = await launchBrowser();
  try {
    const created = await createFight(server, BENCH, 'bench.toml', 12);
    const fighters = created.players.find((p) => p.role === 'side:fighters');
    assert.ok(fighters, 'the bench has a player link for the fighters');

    const gmContext = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const playerContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const gm = await gmContext.newPage();
    const player = await playerContext.newPage();
    const playerFrames = [];
    let playerSockets = 0;
    let gmSockets = 0;
    player.on('websocket', (ws) => {
      playerSockets++;
      ws.on('framereceived', (f) => playerFrames.push(String(f.payload)));
    });
    gm.on('websocket', () => gmSockets++);
    let gmPanels = 0;
    let playerPanels = 0;
    gm.on('requestfinished', (r) => { if (r.url().includes('/panel?')) gmPanels++; });
    player.on('requestfinished', (r) => { if (r.url().includes('/panel?')) playerPanels++; });
    await gm.goto(server.base + created.gm.url);
    await player.goto(server.base + fighters.url);
    await player.waitForFunction(() => document.querySelector('#asked'));
    await gm.screenshot({ path: join(artifacts, 'bench-gm-start.png'), fullPage: true });
    await player.screenshot({ path: join(artifacts, 'bench-player-start.png'), fullPage: true });

    // The GM's map: every combatant on its square, in the picture's text alternative too.
    const mapText = await gm.locator('#map-desc').textContent();
    for (const id of ['fighter-1', 'fighter-4', 'orc-1', 'orc-8']) assert.match(mapText, new RegExp(`\\(${id}\\)`));
    assert.match(mapText, /\(orc-8\), orcs, up, at 12,5/);
    assert.equal(await player.locator('#map').count(), 0, 'no map on the player page (squares are the GM\'s)');

    // 360 px: nothing wider than the screen, the command input within it.
    const overflow = await player.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the player page overflows 360 px by ${overflow} px`);
    const line = await player.locator('#line').boundingBox();
    assert.ok(line.x >= 0 && line.x + line.width <= 360, `the command input spans ${line.x}..${line.x + line.width}`);

    // Keyboard only: Tab moves through the controls, each with a visible focus ring.
    await gm.locator('#line').focus();
    for (let i = 0; i < 6; i++) {
      await gm.keyboard.press('Tab');
      const ring = await gm.evaluate(() => {
        const el = document.activeElement;
        const style = getComputedStyle(el);
        return { tag: el.tagName, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      assert.ok(ring.outline !== 'none' && ring.width >= 2, `focus on ${ring.tag} is visible: ${JSON.stringify(ring)}`);
    }

    const orcHpShown = async () => player.evaluate(() =>
      [...document.querySelectorAll('#combatants tbody tr')]
        .filter((tr) => tr.textContent.includes('(orc-'))
        .some((tr) => tr.children[2].textContent.trim() !== '?'));
    const version = (page) => page.locator('#version').getAttribute('value');
    const changed = (page, before) =>
      page.waitForFunction((v) => document.querySelector('#version')?.value !== v, before);
    const over = async (page) => (await page.locator('#round').textContent()).includes('the fight is over');

    let answers = 0;
    let undone = false;
    let toolsUsed = false;
    let restarted = false;
    for (let step = 0; step < 2000 && !(await over(gm)); step++) {
      assert.equal(await orcHpShown(), false, 'the player page shows an orc\'s hit points');
      if ((await player.locator('#asked').count()) === 0) {
        // fray plays the orcs: the player waits for the next push.
        await player.waitForTimeout(50);
        continue;
      }
      const before = await version(player);
      if (answers % 3 === 2 && (await player.locator('#roll').count()) > 0) {
        // A roll typed at the command bar, from the keyboard.
        await player.locator('#line').fill('r');
        await player.locator('#line').press('Enter');
      } else {
        await player.locator('#options button, #roll').first().click();
      }
      await changed(player, before);
      answers++;

      if (answers === 4 && !undone) {
        // The GM takes the player's last answer back, typing `undo`; the player is asked again.
        undone = true;
        await gm.screenshot({ path: join(artifacts, 'bench-gm-before-undo.png'), fullPage: true });
        const playerBefore = await version(player);
        await gm.locator('#line').fill('undo');
        await gm.locator('#line').press('Enter');
        await changed(player, playerBefore);
        assert.ok((await player.locator('#asked').count()) > 0, 'the undone request is asked again');
        assert.equal(await version(player), before, 'the player page went back to before its answer');
      }

      if (answers === 10 && !toolsUsed) {
        // Odds of the attack and who wins from here, on the GM's page.
        toolsUsed = true;
        await gm.locator('#odds-button').click();
        await gm.waitForFunction(() => document.querySelector('#odds-result h3'));
        assert.match(await gm.locator('#odds-result').textContent(), /hit.*\d+\/\d+/s);
        await gm.locator('#sim-runs').fill('200');
        await gm.locator('#sim-button').click();
        await gm.waitForFunction(() => document.querySelector('#sim-result pre'));
        assert.match(await gm.locator('#sim-result').textContent(), /fighters/);
        // fray plays fighter-4 for a while, then its player again.
        // From the keyboard: Enter on the switch; the focus stays on it after the panel reloads.
        const gmBefore = await version(gm);
        await gm.locator('#plays-fighter-4').focus();
        await gm.keyboard.press('Enter');
        await changed(gm, gmBefore);
        await gm.waitForFunction(() => document.activeElement?.id === 'plays-fighter-4');
        assert.match(await gm.locator('#combatants tr:has-text("(fighter-4)")').textContent(), /fray/);
        await gm.screenshot({ path: join(artifacts, 'bench-gm-tools.png'), fullPage: true });
        const gmAfter = await version(gm);
        await gm.locator('#plays-fighter-4').click();
        await changed(gm, gmAfter);
        assert.match(await gm.locator('#combatants tr:has-text("(fighter-4)")').textContent(), /a person/);
      }

      if (answers === 20 && !restarted) {
        // The server is killed and started again on the same file and address.
        restarted = true;
        await player.screenshot({ path: join(artifacts, 'bench-player-before-restart.png'), fullPage: true });
        const [gmVersion, playerVersion] = [await version(gm), await version(player)];
        const [gmSocketsBefore, playerSocketsBefore] = [gmSockets, playerSockets];
        await server.kill();
        const [gmPanelsBefore, playerPanelsBefore] = [gmPanels, playerPanels];
        server = await startServer({ addr: server.addr, db: server.db });
        // Both pages reconnect their WebSockets and reload their panels from the restarted
        // server, which replays the fight from its SQLite log: the same fight, where it was.
        const deadline = Date.now() + 20_000;
        const back = () => gmSockets > gmSocketsBefore && playerSockets > playerSocketsBefore
          && gmPanels > gmPanelsBefore && playerPanels > playerPanelsBefore;
        while (!back() && Date.now() < deadline) await player.waitForTimeout(100);
        assert.ok(back(), 'both pages reconnected and reloaded their panels');
        assert.equal(await version(gm), gmVersion, 'the GM page resumed the same fight');
        assert.equal(await version(player), playerVersion, 'the player page resumed the same fight');
        await gm.screenshot({ path: join(artifacts, 'bench-gm-after-restart.png'), fullPage: true });
      }
    }
    assert.ok(undone && toolsUsed && restarted, `the walk-through got through (${answers} answers)`);
    assert.ok(await over(gm), 'the fight is over');
    await player.waitForFunction(() => document.querySelector('#round').textContent.includes('the fight is over'));
    await gm.screenshot({ path: join(artifacts, 'bench-gm-end.png'), fullPage: true });
    await player.screenshot({ path: join(artifacts, 'bench-player-end.png'), fullPage: true });

    // No frame the player received carries an orc's hit points, armour or square.
    assert.ok(playerFrames.length > 10, `the player was pushed updates (${playerFrames.length})`);
    for (const text of playerFrames) {
      const frame = JSON.parse(text);
      for (const c of frame.view.combatants) {
        if (c.side === 'orcs') {
          for (const field of ['hp', 'max_hp', 'at', 'played_by']) {
            assert.equal(c[field], undefined, `a frame showed ${c.id}'s ${field}`);
          }
        }
      }
      for (const e of frame.view.events) {
        const about = e.target ?? e.who;
        if (typeof about === 'string' && about.startsWith('orc-')) {
          for (const field of ['versus', 'defense_modifiers', 'hp', 'needed']) {
            assert.equal(e[field], undefined, `a frame showed ${about}'s ${field}: ${JSON.stringify(e)}`);
          }
        }
      }
    }
  } finally {
    await browser.close();
    server.stop();
  }
});
