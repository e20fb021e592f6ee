// What an id strategy has, asked of the core: the `allocator` field's `kind.traits` in the
// field table (a counter row, a cache, a service, a tick sequence). The playground decides
// by these, never by a strategy's name, so a new strategy needs no edit here.

const choice = (table, allocator) => {
  const kind = table?.find((f) => f.name === "allocator")?.kind;
  return { kind, i: kind?.values.indexOf(allocator) ?? -1 };
};

/** The traits of `allocator` in field table `table` (all false for a name it lacks). */
export function traitsOf(table, allocator) {
  const { kind, i } = choice(table, allocator);
  return kind?.traits?.[i] ?? { counterRow: false, cache: false, service: false, tick: false };
}

/** `allocator`'s menu label in field table `table` (its name when the table lacks it). */
export function labelOf(table, allocator) {
  const { kind, i } = choice(table, allocator);
  return kind?.labels[i] ?? allocator;
}
