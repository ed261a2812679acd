import { Box, Text } from "ink";
import { CodeLine } from "./CodeLine.js";
import type { FileDiff } from "./diffLines.js";
import { type DiffRow, diffSigns, numberColumn, shownDiff } from "./diffRows.js";
import { highlightCode, pathLanguage } from "./syntaxHighlight.js";

const lineColors = { add: "green", del: "red", context: undefined } as const;

/**
 * A change as the terminal shows it: removed lines red with `-`, added lines green with `+`,
 * each with its line number where it is known, the code coloured by the file's language, and
 * at most `maxRows` rows.
 */
export function DiffView({ files, maxRows }: { files: readonly FileDiff[]; maxRows: number }) {
  const { rows, hidden, numberWidth } = shownDiff(files, maxRows);
  return (
    <Box flexDirection="column">
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a finished diff, drawn once
        <RowView key={index} row={row} numberWidth={numberWidth} />
      ))}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? "" : "s"}`}</Text> : null}
    </Box>
  );
}

function RowView({ row, numberWidth }: { row: DiffRow; numberWidth: number }) {
  if (row.kind === "file")
    return (
      <Text bold>
        {row.path}
        {row.note === undefined ? "" : <Text dimColor>{` (${row.note})`}</Text>}
      </Text>
    );
  if (row.kind === "gap") return <Text dimColor>{`${numberColumn(undefined, numberWidth)}⋮`}</Text>;
  const { line } = row;
  const color = lineColors[line.kind];
  const tokens = highlightCode(line.text, pathLanguage(row.path))[0] ?? [];
  return (
    <Text>
      <Text color={color} dimColor={color === undefined}>
        {`${numberColumn(line.number, numberWidth)}${diffSigns[line.kind]} `}
      </Text>
      <CodeLine tokens={tokens} plainColor={color} />
    </Text>
  );
}
