// Every relative link in the documentation resolves: the file (or folder) it names exists,
// and a #fragment names a heading of the Markdown file it points into. Links to other sites
// are not followed. Links inside code spans and fenced blocks are not links, and are skipped.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");

/** The Markdown files whose links must resolve, besides every file under docs/. */
const TOP_LEVEL_DOCS = [
  "README.md",
  "STYLE.md",
  "client/README.md",
  "bench/README.md",
  "clients/python/README.md",
];

/** One link of a Markdown file: its target as written and the line it is on (from 1). */
interface DocLink {
  readonly target: string;
  readonly line: number;
}

/** A link that does not resolve, with why. */
interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly problem: string;
}

/** Reads a file as text; the checker takes it as a parameter so its own test needs no disk. */
type ReadText = (path: string) => string | null;

/** The lines of a Markdown text that are prose: fenced code blocks become empty lines. */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker !== undefined) {
      fence = marker[0]!.repeat(marker.length);
      return "";
    }
    if (fence !== null) {
      if (marker !== undefined && marker.startsWith(fence)) fence = null;
      return "";
    }
    return line.replace(/(`+)[^`]*?\1/g, "");
  });
}

/** Inline links and images `[text](target)` and reference definitions `[id]: target`. */
function linksOf(text: string): DocLink[] {
  const links: DocLink[] = [];
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: m[1]!, line: i + 1 });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition) links.push({ target: definition[1]!, line: i + 1 });
  });
  return links;
}

/** The anchor GitHub gives a heading's text. */
function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors of every heading of a Markdown text, numbered as GitHub numbers repeats. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Why one link of `file` does not resolve, or null when it does. */
function problemOf(
  file: string,
  target: string,
  read: ReadText,
  exists: (path: string) => boolean,
): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null;
  const hash = target.indexOf("#");
  const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
  const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  if (pathPart.startsWith("/")) return "absolute path: link relative to the file";
  const path = pathPart === "" ? file : join(dirname(file), pathPart);
  if (!exists(path)) return `no such file: ${path}`;
  if (fragment === null) return null;
  if (!path.endsWith(".md")) return "a #fragment into a file that is not Markdown";
  const text = read(path);
  if (text === null) return `cannot read ${path}`;
  return anchorsOf(text).has(fragment) ? null : `no heading #${fragment} in ${path}`;
}

/** Every link of `files` (paths relative to the repository) that does not resolve. */
function brokenLinks(
  files: readonly string[],
  read: ReadText,
  exists: (path: string) => boolean,
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const text = read(file);
    if (text === null) {
      broken.push({ file, line: 0, target: file, problem: "file missing" });
      continue;
    }
    for (const link of linksOf(text)) {
      const problem = problemOf(file, link.target, read, exists);
      if (problem !== null) broken.push({ file, line: link.line, target: link.target, problem });
    }
  }
  return broken;
}

function markdownUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(repoRoot, dir))) {
    const path = join(dir, name);
    if (statSync(join(repoRoot, path)).isDirectory()) found.push(...markdownUnder(path));
    else if (name.endsWith(".md")) found.push(path);
  }
  return found.sort();
}

const readRepoFile: ReadText = (path) => {
  const full = join(repoRoot, path);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : null;
};
const existsInRepo = (path: string): boolean =>
  !relative(repoRoot, join(repoRoot, path)).startsWith("..") && existsSync(join(repoRoot, path));

describe("documentation links", () => {
  it("every relative link and #fragment in the docs resolves", () => {
    const files = [...TOP_LEVEL_DOCS, ...markdownUnder("docs")];
    expect(files.length).toBeGreaterThan(TOP_LEVEL_DOCS.length);
    const report = brokenLinks(files, readRepoFile, existsInRepo).map(
      (b) => `${b.file}:${b.line}: ${b.target} (${b.problem})`,
    );
    expect(report).toEqual([]);
  });

  it("the checker finds a missing file, a missing heading and skips code and other sites", () => {
    const files: Record<string, string> = {
      "docs/a.md": [
        "# Title",
        "## Two words `code` here",
        "See [b](b.md), [gone](missing.md), [self](#two-words-code-here), [bad](#nowhere),",
        "[b's part](b.md#part-one), [b's other](b.md#part-two), [site](https://example.com).",
        "`[not a link](missing-in-code.md)`",
        "```",
        "[also not](missing-in-fence.md)",
        "```",
        "[ref]: ../README.md",
      ].join("\n"),
      "docs/b.md": "# B\n## Part one\n",
      "README.md": "# R\n",
    };
    const read: ReadText = (path) => files[path] ?? null;
    const broken = brokenLinks(["docs/a.md"], read, (path) => path in files).map(
      (b) => `${b.line}: ${b.target}`,
    );
    expect(broken).toEqual(["3: missing.md", "3: #nowhere", "4: b.md#part-two"]);
  });

  it("gives headings the anchors GitHub gives them", () => {
    expect(slugOf("Lock kinds: shared, semaphores, sets")).toBe(
      "lock-kinds-shared-semaphores-sets",
    );
    expect(slugOf("The `Stream` RPC and its limits")).toBe("the-stream-rpc-and-its-limits");
    expect(slugOf("G1–G6, in plain words")).toBe("g1g6-in-plain-words");
    expect([...anchorsOf("# A\n## A\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });
});
