// The UI test, in the browser that ran the suite: examples/transpose.cu opened in the code-server workbench, the
// squiggle on the naive column read, the hover card with its bank map (mouse hover), the quick-fix menu (Ctrl+.),
// and the fix applied from that menu. Screenshots go to docs/images/ (squiggle.png, hover.png, quickfix.png) only
// when the step they show passed; failures leave ui-failure-*.png in out/e2e/results/.
import { readFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths, repoRoot, log } from './common.mjs';
import { workbenchUrl } from './code-server.mjs';

const FILE = 'transpose.cu';
const NAIVE_READ = 'tile[threadIdx.x][threadIdx.y + j]';
const PAD_TITLE = 'Pad tile to [TILE_DIM][TILE_DIM + 1]';
const WAIT_MS = Number(process.env.CUDA_BANK_LENS_E2E_UI_WAIT_S || 60) * 1000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** 1-based line and column of the array name of the naive kernel's column read. */
function naiveReadPosition(text) {
  const k = text.search(/transposeNaiveTile\s*\(/);
  if (k < 0) throw new Error(`${FILE} has no transposeNaiveTile kernel`);
  const i = text.indexOf(NAIVE_READ, k);
  if (i < 0) throw new Error(`${FILE}: "${NAIVE_READ}" not found in transposeNaiveTile`);
  const before = text.slice(0, i);
  const line = before.split('\n').length;
  const column = i - before.lastIndexOf('\n');
  const d = text.indexOf('__shared__ float tile[TILE_DIM][TILE_DIM];', k);
  const declLine = text.slice(0, d).split('\n').length;
  return { line, column, declLine };
}

async function poll(what, fn, timeoutMs = WAIT_MS) {
  const deadline = Date.now() + timeoutMs;
  let lastErr;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${lastErr ? ` (${lastErr.message})` : ''}`);
    await sleep(250);
  }
}

/** A clip rectangle around the given boxes, with a margin, inside the viewport. */
function clipAround(boxes, viewport, margin = 24) {
  const bs = boxes.filter(Boolean);
  let x0 = Math.min(...bs.map((b) => b.x)) - margin;
  let y0 = Math.min(...bs.map((b) => b.y)) - margin;
  let x1 = Math.max(...bs.map((b) => b.x + b.width)) + margin;
  let y1 = Math.max(...bs.map((b) => b.y + b.height)) + margin;
  x0 = Math.max(0, x0);
  y0 = Math.max(0, y0);
  x1 = Math.min(viewport.width, x1);
  y1 = Math.min(viewport.height, y1);
  return { x: Math.round(x0), y: Math.round(y0), width: Math.round(x1 - x0), height: Math.round(y1 - y0) };
}

export async function runUiTest({ browser, cs, run, consoleLog }) {
  const tests = [];
  const viewport = { width: 1280, height: 800 };
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('console', (m) => appendFileSync(consoleLog, `[ui ${m.type()}] ${m.text()}\n`));
  mkdirSync(paths.screenshots, { recursive: true });
  const text = readFileSync(join(run.workspace, FILE), 'utf8');
  const pos = naiveReadPosition(text);
  const shot = (name) => join(paths.screenshots, name);
  let failedStep = null;
  // a failed prerequisite (opening the file, finding the squiggle) stops the steps after it; others do not
  const step = async (title, fn, { prerequisite = false } = {}) => {
    if (failedStep) {
      tests.push({ title: `ui: ${title}`, state: 'failed', error: `not run: "${failedStep}" failed` });
      log(`  FAIL ui: ${title} (not run)`);
      return;
    }
    const t = Date.now();
    try {
      await fn();
      tests.push({ title: `ui: ${title}`, state: 'passed', durationMs: Date.now() - t });
      log(`  ok   ui: ${title} (${Date.now() - t} ms)`);
    } catch (e) {
      if (prerequisite) failedStep = title;
      const png = join(paths.results, `ui-failure-${tests.length + 1}.png`);
      await page.screenshot({ path: png }).catch(() => {});
      tests.push({ title: `ui: ${title}`, state: 'failed', durationMs: Date.now() - t, error: `${e.message} (screenshot ${png})` });
      log(`  FAIL ui: ${title}: ${e.message}\n       screenshot: ${png}`);
    }
  };

  const editor = () => page.locator('.part.editor .monaco-editor').first();
  /**
   * The warning squiggle on editor line n (1-based), found through the line-number gutter, so that it stays right
   * when code lenses or scrolling move the lines; null when there is none.
   */
  const squiggleOnLine = (n, kind = 'warning') =>
    editor().evaluate(
      (ed, [n, kind]) => {
        const num = [...ed.querySelectorAll('.margin-view-overlays .line-numbers')].find((e) => e.textContent.trim() === String(n));
        if (!num) return null;
        const line = num.parentElement.getBoundingClientRect();
        const hit = [...ed.querySelectorAll(`.squiggly-${kind}`)]
          .map((e) => e.getBoundingClientRect())
          .find((r) => r.width > 0 && r.top + r.height / 2 > line.top && r.top + r.height / 2 < line.bottom);
        return hit ? { x: hit.x, y: hit.y, width: hit.width, height: hit.height } : null;
      },
      [n, kind],
    );
  const freshSquiggle = (timeoutMs) => poll(`a warning squiggle on line ${pos.line}`, () => squiggleOnLine(pos.line), timeoutMs);
  let squiggle;
  /** Moves the mouse onto the text above a squiggle from outside it (a real mouse move, every time) and rests. */
  const mouseOnto = async (box) => {
    const x = box.x + Math.min(12, box.width / 2);
    const y = box.y + box.height / 2 - 6;
    await page.mouse.move(x - 40, y + 60);
    await sleep(100);
    await page.mouse.move(x, y, { steps: 6 });
    await sleep(900);
  };
  /** The rendered text of editor line n (1-based), matched through the line-number gutter; null when not in view. */
  const lineText = (n) =>
    editor().evaluate((ed, n) => {
      const num = [...ed.querySelectorAll('.margin-view-overlays .line-numbers')].find((e) => e.textContent.trim() === String(n));
      if (!num) return null;
      const top = num.parentElement.getBoundingClientRect().top;
      const line = [...ed.querySelectorAll('.view-lines .view-line')].find((e) => Math.abs(e.getBoundingClientRect().top - top) < 2);
      return line ? line.textContent.replace(/\u00a0/g, ' ') : null;
    }, n);

  await step(`opens ${FILE} in the workbench`, async () => {
    const url = workbenchUrl(cs.url, { folder: run.workspace, extensionDevelopmentPath: repoRoot });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const item = page.getByRole('treeitem', { name: FILE, exact: true });
    await item.waitFor({ state: 'visible', timeout: WAIT_MS });
    await item.dblclick();
    await poll(`${FILE} in the editor`, async () => (await editor().locator('.view-lines').textContent())?.includes('#include'));
    // put the cursor on the read: Go to Line (Ctrl+G) "line:column"
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`:${pos.line}:${pos.column}`);
    await page.keyboard.press('Enter');
    await poll(`the status bar to show Ln ${pos.line}, Col ${pos.column}`, async () =>
      (await page.locator('.statusbar').textContent())?.includes(`Ln ${pos.line}, Col ${pos.column}`),
    );
    await page.locator('.statusbar-item').filter({ hasText: /CUDA C\+\+/ }).first().waitFor({ timeout: 10_000 });
  }, { prerequisite: true });

  await step(`shows a warning squiggle under the column read (line ${pos.line})`, async () => {
    squiggle = await freshSquiggle();
    // the cursor off the word (no occurrence highlights in the picture), onto the blank line after the kernel
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.mouse.move(5, viewport.height - 5);
    await sleep(300);
    const ed = await editor().boundingBox();
    const clip = clipAround([squiggle], viewport, 0);
    await page.screenshot({ path: shot('squiggle.png'), clip: clipAround([{ x: ed.x, y: clip.y - 360, width: Math.min(ed.width, 900), height: 420 }], viewport, 0) });
  }, { prerequisite: true });

  await step('hovering the read shows the card with its bank map', async () => {
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: '32-way' }).first();
    await poll('the hover card', async () => {
      // re-hover until the card appears (a hover can be cancelled by a re-render; lines can move under code lenses)
      squiggle = (await squiggleOnLine(pos.line)) ?? squiggle;
      await mouseOnto(squiggle);
      return hover.isVisible();
    });
    const img = hover.locator('img[src^="data:image/svg+xml"]').first();
    await img.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
      const shown = (await hover.textContent()) ?? '';
      const cut = /\]\(data:image\/svg\+xml/.test(shown)
        ? ': its markdown shows as text, cut off (VS Code renders only the first 100,000 characters of a hover markdown string)'
        : '';
      throw new Error(`the hover has no data:image/svg+xml picture${cut}`);
    });
    const loaded = await img.evaluate((el) => el.complete && el.naturalWidth > 0);
    if (!loaded) throw new Error('the bank map image did not render (naturalWidth 0)');
    const fit = await hover.evaluate((h) => {
      const i = h.querySelector('img[src^="data:image/svg+xml"]');
      const hr = h.getBoundingClientRect();
      return { image: [i.naturalWidth, i.naturalHeight], hover: [Math.round(hr.width), Math.round(hr.height)] };
    });
    if (fit.image[0] > fit.hover[0] || fit.image[1] > fit.hover[1]) {
      log(`       note: the bank map is ${fit.image.join('x')} px, the hover ${fit.hover.join('x')} px: the picture needs scrolling`);
    }
    try {
      await pictureHover();
    } catch (e) {
      log(`       note: could not enlarge the hover for the picture (${e.message}); taking it as it is`);
      const box = await hover.boundingBox();
      const ed = await editor().boundingBox();
      await page.screenshot({ path: shot('hover.png'), clip: clipAround([box, squiggle, { x: ed.x, y: squiggle.y, width: 10, height: 10 }], viewport) });
    }
  });

  /**
   * For docs/images/hover.png: the default hover is 250 px high and the card puts its bank map last. Scroll the
   * read to the lower part of the editor, hover it again, drag the hover's top edge up (hovers are resizable),
   * and scroll the card to its "Bank map" heading.
   */
  async function pictureHover() {
    await page.mouse.move(5, viewport.height - 5);
    await page.keyboard.press('Escape');
    const ed = await editor().boundingBox();
    const lineHeight = squiggle.height > 0 ? (await page.locator('.part.editor .monaco-editor .view-line').first().boundingBox()).height : 19;
    const linesDown = Math.max(0, Math.floor((ed.y + ed.height - 80 - squiggle.y) / lineHeight));
    for (let i = 0; i < linesDown; i++) await page.keyboard.press('Control+ArrowUp'); // scroll the view, not the cursor
    await sleep(300);
    squiggle = await freshSquiggle(10_000);
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: '32-way' }).first();
    await poll('the hover card again', async () => {
      squiggle = (await squiggleOnLine(pos.line)) ?? squiggle;
      await mouseOnto(squiggle);
      return hover.isVisible();
    }, 20_000);
    const sash = page.locator('.monaco-resizable-hover .monaco-sash.orthogonal-edge-north:not(.disabled)').first();
    const sb = await sash.boundingBox();
    if (!sb) throw new Error('no resizable top edge on the hover');
    await page.mouse.move(sb.x + sb.width / 2, sb.y + sb.height / 2);
    await page.mouse.down();
    await page.mouse.move(sb.x + sb.width / 2, ed.y + 8, { steps: 12 });
    await page.mouse.up();
    await sleep(300);
    if (!(await hover.isVisible())) throw new Error('the hover closed while resizing');
    await hover.evaluate((h) => {
      const heading = [...h.querySelectorAll('p')].find((p) => /bank map/i.test(p.textContent ?? ''));
      (heading ?? h.querySelector('img'))?.scrollIntoView({ block: 'start' });
    });
    await sleep(300);
    const box = await hover.boundingBox();
    await page.screenshot({ path: shot('hover.png'), clip: clipAround([box, squiggle, { x: ed.x, y: squiggle.y, width: 10, height: 10 }], viewport) });
  }

  await step('Ctrl+. on the read lists the padding fix', async () => {
    await page.keyboard.press('Escape');
    await page.mouse.move(5, viewport.height - 5);
    squiggle = await freshSquiggle(10_000);
    await page.mouse.click(squiggle.x + 2, squiggle.y + squiggle.height / 2 - 4); // cursor into the read
    await sleep(200);
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget').filter({ hasText: PAD_TITLE }).first();
    await menu.waitFor({ state: 'visible', timeout: WAIT_MS });
    await sleep(300);
    const box = await menu.boundingBox();
    const ed = await editor().boundingBox();
    await page.screenshot({ path: shot('quickfix.png'), clip: clipAround([box, squiggle, { x: ed.x, y: squiggle.y - 200, width: 10, height: 10 }], viewport) });
  });

  await step('choosing the fix in the menu clears the squiggle', async () => {
    // the menu's rows do not take pointer clicks reliably while it animates: choose with the keyboard
    const row = page.locator('.action-widget .monaco-list-row').filter({ hasText: PAD_TITLE }).first();
    for (let i = 0; i < 10 && !(await row.evaluate((el) => el.classList.contains('focused'))); i++) await page.keyboard.press('ArrowDown');
    if (!(await row.evaluate((el) => el.classList.contains('focused')))) throw new Error('could not focus the padding fix in the menu');
    await page.keyboard.press('Enter');
    await poll(`line ${pos.declLine} to read "__shared__ float tile[TILE_DIM][TILE_DIM + 1];"`, async () =>
      (await lineText(pos.declLine))?.includes('__shared__ float tile[TILE_DIM][TILE_DIM + 1];'),
    );
    await poll(`the squiggle on line ${pos.line} to go away`, async () => !(await squiggleOnLine(pos.line)));
  });

  await context.close().catch(() => {});
  return { passed: tests.filter((t) => t.state === 'passed').length, failed: tests.filter((t) => t.state === 'failed').length, tests };
}
