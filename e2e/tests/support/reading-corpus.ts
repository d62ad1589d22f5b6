// Nasty Markdown for the reading test (issue 27 item 1): everything that used to make a
// published page scroll sideways, print its title twice or trip axe. Written as agents write.

export const CORPUS_TITLE = "Field notes: the autumn migration";

const LONG_WORD = "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft";
const LONG_URL = `https://example.com/reports/2026/autumn/${"very-long-path-segment-".repeat(8)}final.html?utm_source=agent&utm_medium=page&ref=${"x".repeat(40)}`;
const LONG_CODE_LINE = `const settings = { ${Array.from({ length: 24 }, (_, i) => `option${i}: "value number ${i}"`).join(", ")} };`;

export const CORPUS_MARKDOWN = `# Field Notes — the Autumn Migration

A paragraph with a word that does not fit any screen: ${LONG_WORD}${LONG_WORD}, and a bare
link that is longer than the column: ${LONG_URL}. Entities stay text: &amp; &lt;tag&gt; &copy; 2026 &mdash; “quotes” &#x1F426;.

A [link whose text is the address itself](${LONG_URL}) and \`inline.code.that.is.a.very.long.identifier.without.any.spaces.at.all.anywhere\`.

## Tasks

- [x] Count the geese at the lake
- [ ] Write up the **crane** sightings with a [map](https://example.com/map)
  - [ ] Nested task under the cranes
- [x] Send the photos

## A wide table

| Site | Observer | First seen | Last seen | Count | Weather | Notes | Source |
|:--|:--|--:|--:|--:|:--|:--|:--|
| North shore of the lake | A. Field-Researcher | 2026-09-01 | 2026-10-30 | 1,250 | overcast, light wind from the north-west | Large flocks resting on the mud flats before moving on | ${LONG_URL} |
| Reed beds | B. Watcher | 2026-09-14 | 2026-10-02 | 87 | rain | ${LONG_WORD} | https://example.com/b |

## Long code

\`\`\`js
${LONG_CODE_LINE}
function migrate(birds) {
  return birds.filter((b) => b.season === "autumn").map((b) => ({ ...b, heading: "south-south-west", confidence: 0.87, notes: "seen at dawn near the reeds" }));
}
\`\`\`

    an indented block without a language, also wider than the column: ${"0123456789".repeat(14)}

## Lists inside lists

1. Preparation
   - binoculars
   - notebook
     1. pencil
     2. spare pencil
2. Fieldwork
   > A quotation inside a list, with a long word: ${LONG_WORD}

## Right to left

مرحبا بالعالم. هذه فقرة باللغة العربية تتحدث عن هجرة الطيور في الخريف، وهي مكتوبة من اليمين إلى اليسار.

שלום עולם. זו פסקה בעברית על נדידת הציפורים בסתיו.

## An image without a size

![The Atelier mark, drawn without a size](/app/favicon.svg)

The end.
`;

/** A live table with columns of every kind, wide enough to scroll on a phone. */
export const CORPUS_TABLE_COLUMNS = [
  { name: "species", type: "text", required: true },
  { name: "count", type: "number" },
  { name: "first seen", type: "date" },
  { name: "status", type: "select", options: ["todo", "doing", "done", "blocked"] },
  { name: "ringed", type: "boolean" },
  { name: "source", type: "url" },
] as const;

export const CORPUS_TABLE_ROWS = [
  { species: "Greylag goose", count: 1250, "first seen": "2026-09-01", status: "done", ringed: true, source: LONG_URL },
  { species: "Common crane", count: 87, "first seen": "2026-09-14", status: "doing", ringed: false, source: "https://example.com/cranes" },
  { species: "Barnacle goose", count: 312.5, "first seen": "2026-10-02", status: "todo", ringed: false },
  { species: "Whooper swan", count: 9, "first seen": "2026-08-20", status: "blocked", ringed: true, source: "https://example.com/swans" },
  { species: `Lesser white-fronted goose ${LONG_WORD}`, count: 2, "first seen": "2026-10-11", status: "done" },
  { species: "Bean goose", count: 40, "first seen": "2026-09-28", status: "doing", ringed: false },
  { species: "Eurasian wigeon", count: 560, "first seen": "2026-09-07", status: "todo", ringed: true },
];
