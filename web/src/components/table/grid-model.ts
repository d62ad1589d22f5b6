// The grid's TanStack Table setup: the core and cell selection (the focused cell, the
// selected block, moves by arrow keys).
import { type Cell, cellSelectionFeature, createColumnHelper, tableFeatures } from "@tanstack/react-table";
import type { Row } from "../../lib/table/types";

export const gridFeatures = tableFeatures({ cellSelectionFeature });
export const gridColumns = createColumnHelper<typeof gridFeatures, Row>();
export type GridCellModel = Cell<typeof gridFeatures, Row, unknown>;
