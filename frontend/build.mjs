// Builds the board and the page scripts into ../static/build/ (served by Django as static files).
// Everything is generated here, offline: piece images and board drawings are SVG made below.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, "..", "static", "build");
const watch = process.argv.includes("--watch");

// --- Pieces -------------------------------------------------------------------------------------

const GLYPHS = {
  white: { k: "帅", a: "仕", b: "相", n: "马", r: "车", c: "炮", p: "兵", f: "战机", m: "导弹" },
  black: { k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒", f: "战机", m: "导弹" },
};
const INK = { white: "#b71c1c", black: "#1b1b1b" };
const TURNCOATS = ["r", "n", "c"];
const FONT =
  "'KaiTi','STKaiti','Kaiti SC','AR PL UKai CN','Noto Serif CJK SC','Source Han Serif SC'," +
  "'Noto Sans CJK SC','WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',serif";

function pieceSvg(color, role, turncoat) {
  const ink = INK[color];
  const text = GLYPHS[color][role];
  const face = turncoat ? ink : "#f7e9c8";
  const letters = turncoat ? "#fff6e0" : ink;
  const mark = turncoat
    ? `<circle cx="50" cy="50" r="47" fill="none" stroke="#f2b600" stroke-width="4" stroke-dasharray="7 5"/>`
    : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<circle cx="50" cy="52" r="44" fill="rgba(0,0,0,0.28)"/>` +
    `<circle cx="50" cy="50" r="44" fill="${face}" stroke="${ink}" stroke-width="3"/>` +
    `<circle cx="50" cy="50" r="37" fill="none" stroke="${letters}" stroke-width="1.6"/>` +
    mark +
    glyph(text, letters) +
    `</svg>`
  );
}

// A one-character name fills the piece; a two-character one (战机, 导弹) stands in two lines,
// one character above the other (side by side they fit only at 29, too small to read on a
// phone), as the site's position pictures draw them (core/diagram.py).
const GLYPH_SIZE = 52;
const STACKED_SIZE = 34;
const BASELINE = 0.35; // from a character's middle to its baseline, in ems

function glyph(text, fill) {
  const style = `text-anchor="middle" font-family="${FONT}" font-weight="bold" fill="${fill}"`;
  if (text.length === 1) {
    return `<text x="50" y="51" dominant-baseline="central" font-size="${GLYPH_SIZE}" ${style}>${text}</text>`;
  }
  const half = STACKED_SIZE / 2;
  const lines = [...text]
    .map((character, i) => {
      const y = 51 + (i === 0 ? -half : half) + BASELINE * STACKED_SIZE;
      return `<tspan x="50" y="${y.toFixed(2)}">${character}</tspan>`;
    })
    .join("");
  return `<text font-size="${STACKED_SIZE}" data-stacked="1" ${style}>${lines}</text>`;
}

function dataUri(svg) {
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

function pieceCss() {
  const rules = [];
  for (const color of ["white", "black"]) {
    for (const role of Object.keys(GLYPHS[color])) {
      rules.push(`.xb-board piece.${role}-piece.${color}{background-image:${dataUri(pieceSvg(color, role, false))}}`);
    }
    for (const role of TURNCOATS) {
      rules.push(`.xb-board piece.p${role}-piece.${color}{background-image:${dataUri(pieceSvg(color, role, true))}}`);
    }
  }
  return rules.join("\n");
}

// --- Boards -------------------------------------------------------------------------------------

const LINE = "#5b3a1a";

function cornerMarks(x, y, width) {
  // The small corner marks around a cannon or soldier point; none beyond the board's edge.
  const d = 8, l = 16, out = [];
  for (const sx of [-1, 1]) {
    if ((sx < 0 && x === 50) || (sx > 0 && x === width * 100 - 50)) continue;
    for (const sy of [-1, 1]) {
      const cx = x + sx * d, cy = y + sy * d;
      out.push(`<path d="M${cx + sx * l} ${cy}H${cx}V${cy + sy * l}"/>`);
    }
  }
  return out.join("");
}

function boardSvg(width, height, { missileBases, markFiles }) {
  const W = width * 100, H = height * 100;
  const left = 50, right = W - 50, topY = 50, bottomY = H - 50;
  const parts = [];
  const rowY = (row) => 50 + row * 100; // row 0 is the top rank (rank 9)
  const colX = (col) => 50 + col * 100;
  for (let row = 0; row < height; row++) parts.push(`<path d="M${left} ${rowY(row)}H${right}"/>`);
  for (let col = 0; col < width; col++) {
    if (col === 0 || col === width - 1) {
      parts.push(`<path d="M${colX(col)} ${topY}V${bottomY}"/>`);
    } else {
      parts.push(`<path d="M${colX(col)} ${topY}V${rowY(4)}M${colX(col)} ${rowY(5)}V${bottomY}"/>`);
    }
  }
  const centre = Math.floor(width / 2);
  for (const [r0, r1] of [[0, 2], [7, 9]]) {
    parts.push(
      `<path d="M${colX(centre - 1)} ${rowY(r0)}L${colX(centre + 1)} ${rowY(r1)}` +
        `M${colX(centre + 1)} ${rowY(r0)}L${colX(centre - 1)} ${rowY(r1)}"/>`,
    );
  }
  const marks = [];
  for (const [files, ranks] of markFiles) {
    for (const f of files) for (const r of ranks) marks.push(cornerMarks(colX(f), rowY(9 - r), width));
  }
  const bases = missileBases
    ? [[0, 0], [width - 1, 0], [0, 9], [width - 1, 9]]
        .map(([f, r]) => {
          const x = colX(f), y = rowY(9 - r);
          return (
            `<circle cx="${x}" cy="${y}" r="34" fill="rgba(183,28,28,0.10)" stroke="#b71c1c" stroke-width="3" stroke-dasharray="9 6"/>` +
            `<circle cx="${x}" cy="${y}" r="12" fill="none" stroke="#b71c1c" stroke-width="3"/>`
          );
        })
        .join("")
    : "";
  const riverY = (rowY(4) + rowY(5)) / 2;
  const river =
    `<text x="${W * 0.27}" y="${riverY}" font-size="52" text-anchor="middle" dominant-baseline="central" ` +
    `font-family="${FONT}" fill="${LINE}" opacity="0.75">楚 河</text>` +
    `<text x="${W * 0.73}" y="${riverY}" font-size="52" text-anchor="middle" dominant-baseline="central" ` +
    `font-family="${FONT}" fill="${LINE}" opacity="0.75">汉 界</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}">` +
    `<rect width="${W}" height="${H}" fill="#eecf96"/>` +
    `<rect x="${left - 12}" y="${topY - 12}" width="${right - left + 24}" height="${bottomY - topY + 24}" fill="none" stroke="${LINE}" stroke-width="6"/>` +
    `<g stroke="${LINE}" stroke-width="3" fill="none">${parts.join("")}${marks.join("")}</g>` +
    bases +
    river +
    `</svg>`
  );
}

function boardCss() {
  const nine = boardSvg(9, 10, {
    missileBases: false,
    markFiles: [[[1, 7], [2, 7]], [[0, 2, 4, 6, 8], [3, 6]]],
  });
  const eleven = boardSvg(11, 10, {
    missileBases: true,
    markFiles: [[[2, 8], [2, 7]], [[1, 3, 5, 7, 9], [3, 6]]],
  });
  return [
    `.xb-9x10 cg-board{background-image:${dataUri(nine)}}`,
    `.xb-11x10 cg-board{background-image:${dataUri(eleven)}}`,
  ].join("\n");
}

// --- Build --------------------------------------------------------------------------------------

function writeCss() {
  const base = readFileSync(join(here, "node_modules", "chessgroundx", "assets", "chessground.base.css"), "utf8");
  const theme = readFileSync(join(here, "src", "board.css"), "utf8");
  writeFileSync(join(outdir, "board.css"), [base, theme, boardCss(), pieceCss()].join("\n"));
}

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
writeCss();
const options = {
  entryPoints: [join(here, "src", "board.js"), join(here, "src", "analysis.js")],
  outdir,
  bundle: true,
  format: "esm",
  splitting: true,
  minify: !watch,
  sourcemap: true,
  target: ["es2020"],
  chunkNames: "chunks/[name]-[hash]",
  logLevel: watch ? "info" : "warning",
};
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
