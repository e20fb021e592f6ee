// The Theme button: the element's colours switch, and the charts and heatmap keep the run's
// history, drawn again in the new colours at once, paused or running.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage, until } from "./page.mjs";

const env = useSite();

/** What the charts and the heatmap hold, and the throughput line's colour. */
const drawn = (pg) => pg.evaluate((el) => {
  const pgc = el[Symbol.for("hotrow.playground.internals")];
  return {
    points: pgc.throughputChart.data[0].length,
    lines: pgc.throughputChart.series.slice(1).map((s) => s.label),
    columns: pgc.heatmaps[0].columns.length,
    theme: el.getAttribute("theme"),
    stroke: pgc.throughputChart.series[1]._stroke, // uPlot's colour as last drawn
  };
});

test("the Theme button switches the colours and keeps the charts' history, paused and running", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=bug39267&speed=4000`);
  const pg = page.locator("hotrow-playground");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.latest?.nowMs >= 1000, undefined, "a simulated second");
  await pg.locator(".play").click(); // Pause
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.state.run.paused === true, undefined, "paused");
  const before = await drawn(pg);
  assert.ok(before.points > 5 && before.columns > 5, JSON.stringify(before));
  await pg.locator(".theme").click();
  // Paused, nothing ticks (but a tick already on its way): the new charts are drawn from the
  // history kept, at the next frame.
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }, n) =>
    el.throughputChart.data[0].length === el.series[0].length && el.series[0].length >= n, before.points, "the history drawn in the new charts");
  const after = await drawn(pg);
  assert.notEqual(after.theme, before.theme);
  assert.ok(after.columns >= before.columns, `the heatmap keeps its columns: ${before.columns} -> ${after.columns}`);
  assert.deepEqual(after.lines, before.lines);
  assert.notEqual(after.stroke, before.stroke, "the lines take the other theme's colours");
  // Running, the history stays too: two frames after the switch the charts hold at least as
  // much as before it.
  await pg.locator(".play").click();
  await pg.locator(".theme").click();
  const kept = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) =>
    new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(el.throughputChart.data[0].length)))));
  assert.ok(kept >= after.points, `${kept} points drawn after the switch, ${after.points} before`);
  assert.deepEqual(problems, []);
  await page.close();
});
