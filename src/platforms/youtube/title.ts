// A post's text as a YouTube video's title and description (reference §5): the first line is the title, at most
// 100 characters, cut with "…" where longer; the rest is the description. YouTube refuses `<` and `>` in both
// ("may contain all valid UTF-8 characters except < and >", Videos resource), so they become ‹ and ›.
const TITLE_MAX = 100;

const angle = (s: string) => s.replaceAll("<", "‹").replaceAll(">", "›");

function graphemes(s: string): string[] {
  return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s)].map((g) => g.segment);
}

/** Title and description of a video post; a post whose first line is empty takes the first line with text. */
export function titleAndDescription(text: string): { title: string; description: string } {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const at = lines.findIndex((l) => l.trim() !== "");
  const first = at < 0 ? "" : lines[at]!.trim();
  const description =
    at < 0
      ? ""
      : lines
          .slice(at + 1)
          .join("\n")
          .trim();
  const g = graphemes(angle(first));
  const title =
    g.length > TITLE_MAX
      ? `${g
          .slice(0, TITLE_MAX - 1)
          .join("")
          .trimEnd()}…`
      : g.join("");
  return { title: title || "Video", description: angle(description) };
}
