// Reads a PDF that Chromium printed (page.pdf()) through pdf.js: per page its text (letters,
// digits and % only: pdf.js splits words at ligatures and drops some symbols) and the images painted on it with how many
// distinct pixels each holds (a canvas prints as an image; a blank one holds one value).
// renderPages draws the pages as PNGs for a person to look at.
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import { writeFileSync } from "node:fs";

const IMAGE_OPS = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject]);

const open = (bytes) => getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;

/** Text as readPdf gives it (letters, digits and % alone, ligatures undone): to compare with a page's. */
export const squash = (text) => text.normalize("NFKC").replace(/[^\p{L}\p{N}%]/gu, "");

/** @returns {Promise<{ text: string, images: { width: number, height: number, colours: number }[] }[]>} */
export async function readPdf(bytes) {
  const doc = await open(bytes);
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const text = squash(content.items.map((item) => ("str" in item ? item.str : "")).join(""));
    const ops = await page.getOperatorList();
    const images = [];
    for (const [i, op] of ops.fnArray.entries()) {
      if (!IMAGE_OPS.has(op)) continue;
      const arg = ops.argsArray[i][0];
      const img = typeof arg === "string" ? await new Promise((resolve) => page.objs.get(arg, resolve)) : arg;
      images.push({ width: img.width, height: img.height, colours: colours(img.data) });
    }
    pages.push({ text, images });
  }
  await doc.destroy();
  return pages;
}

// Distinct pixel values, counted up to 64 (enough to tell a drawn chart from a blank one).
function colours(data) {
  if (!data) return 0;
  const seen = new Set();
  const step = Math.max(1, Math.floor(data.length / 3 / 20000)) * 3;
  for (let i = 0; i + 2 < data.length && seen.size < 64; i += step) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

/** Writes each page as `${prefix}-N.png` (pdf.js on @napi-rs/canvas); false when that is not installed. */
export async function renderPages(bytes, prefix) {
  let createCanvas;
  try {
    ({ createCanvas } = await import("@napi-rs/canvas"));
  } catch {
    return false;
  }
  const doc = await open(bytes);
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const canvas = createCanvas(viewport.width, viewport.height);
    await page.render({ canvasContext: canvas.getContext("2d"), viewport, canvas }).promise;
    writeFileSync(`${prefix}-${n}.png`, canvas.toBuffer("image/png"));
  }
  await doc.destroy();
  return true;
}
