// The guided tour in Chromium: every chapter's claim is written from live numbers, the
// whole tour walks with the keyboard and the buttons without an error, deep links and the
// `tour` attribute open a chapter, and leaving it gives the whole playground back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage } from "./page.mjs";

const CHAPTERS = 9;
const env = useSite();

/** Waits for chapter `n`'s popover with its measured claim, and returns the claim. */
async function claimOf(page, n) {
  await page.waitForFunction((n) => {
    const p = document.querySelector(".driver-popover-progress-text");
    const d = document.querySelector(".driver-popover-description");
    return p?.textContent === `Chapter ${n} of 9` && d && !d.textContent.startsWith("Measuring");
  }, n, { timeout: 60_000 });
  return page.locator(".driver-popover-description").textContent();
}

test("the whole tour walks from the keyboard and the buttons, each claim quoting live numbers", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?speed=5000`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".tour-start").click();
  const claims = [];
  for (let n = 1; n <= CHAPTERS; n++) {
    const claim = await claimOf(page, n);
    claims.push(claim);
    assert.match(new URL(page.url()).search, new RegExp(`tour=${n}\\b`), "the chapter is in the URL");
    if (n < CHAPTERS) assert.match(claim, /\d/, `chapter ${n} quotes numbers: ${claim}`);
    // Controls appear as the story needs them: chapter 3 shows only the cache size.
    if (n === 3) {
      const shown = await pg.locator(".controls .control").evaluateAll((cs) => cs.filter((c) => c.offsetParent).map((c) => c.querySelector("input, select")?.id));
      assert.deepEqual(shown, ["cacheSize"]);
    }
    // A compared figure's change is said as the ratio card says it: within noise, no "fell 2%".
    if (n === 4) {
      const noise = await pg.locator(".ratio-noise").textContent();
      assert.equal(/did not move beyond noise/.test(claim), noise === "within noise", `card: "${noise}"; claim: ${claim}`);
    }
    // Odd chapters go on by the keyboard, even ones by the button; the last one's button leaves.
    if (n % 2 && n < CHAPTERS) await page.keyboard.press("ArrowRight");
    else await page.locator(".driver-popover-next-btn").click();
  }
  // The claims were written from the runs: the cache chapter's TPM figures are the live ones.
  assert.match(claims[2], /TPM rose \d+% \([\d.]+k → [\d.]+k/);
  assert.match(claims[0], /busy (9\d|100)% of the time/);
  assert.match(claims[0], /early in DBT2's transient/, "chapter 1 says why its second reads above the steady figure");
  // Leaving gave every control back.
  await page.waitForFunction(() => !document.querySelector(".driver-popover"));
  assert.equal(await pg.evaluate((el) => el.hasAttribute("touring")), false);
  assert.ok(await pg.locator("#dataNodes").isVisible());
  assert.doesNotMatch(new URL(page.url()).search, /tour=/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a chapter's claim is held: the same text 5 s later, quoting the numbers the cards show", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?tour=1&speed=5000`);
  const pg = page.locator("hotrow-playground");
  const claim = await claimOf(page, 1);
  const card = await pg.locator('[data-metric="tpm"]').textContent();
  assert.ok(claim.includes(`TPM is ${card} `), `the popover quotes the card's ${card}: ${claim}`);
  assert.match(claim, /Measured over simulated 1–2 s/);
  await page.waitForTimeout(5000);
  assert.equal(await page.locator(".driver-popover-description").textContent(), claim, "read again 5 s later");
  assert.equal(await pg.locator('[data-metric="tpm"]').textContent(), card);
  // The run goes on (Play, from script: the tour's overlay covers the page): the cards
  // move, the claim stays.
  await pg.evaluate((el) => el.shadowRoot.querySelector(".play").click());
  await page.waitForFunction((card) => {
    const tpm = document.querySelector("hotrow-playground").shadowRoot.querySelector('[data-metric="tpm"]');
    return tpm.textContent !== card;
  }, card, { timeout: 20_000 });
  assert.equal(await page.locator(".driver-popover-description").textContent(), claim, "held while the run goes on");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a deep link opens a chapter; back, the tour attribute and Escape work", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?tour=3&speed=5000`);
  const pg = page.locator("hotrow-playground");
  assert.match(await claimOf(page, 3), /fetches 1000 ids per refill/);
  assert.equal(await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.effective.map((c) => c.cacheSize).join()), "1,1000");
  await page.keyboard.press("ArrowLeft");
  assert.match(await claimOf(page, 2), /24/);
  // A docs page can start a reader at a chapter with the element's attribute.
  await pg.evaluate((el) => el.setAttribute("tour", "5"));
  assert.match(await claimOf(page, 5), /primary key/);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector(".driver-popover"));
  assert.equal(await pg.evaluate((el) => el.hasAttribute("touring")), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a compact element on a docs page shows its full view while touring", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/docs.html`);
  const pg = page.locator("hotrow-playground").first();
  assert.equal(await pg.locator(".bars-tc").first().isVisible(), false, "compact hides the TC bars");
  await pg.evaluate((el) => el.setAttribute("tour", "4"));
  assert.match(await claimOf(page, 4), /round robin/);
  assert.equal(await pg.locator(".bars-tc").first().isVisible(), true, "the chapter's target is shown");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector(".driver-popover"));
  assert.equal(await pg.locator(".bars-tc").first().isVisible(), false, "compact again after the tour");
  assert.deepEqual(problems, []);
  await page.close();
});
