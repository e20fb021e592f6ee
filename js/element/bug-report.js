// The bug report's measurements (MySQL Bug #39267: DBT2, 8 data nodes, 2 replicas), as the
// playground quotes them: the reference lines on the throughput chart, the tour's claims
// and the explanation. `hotrow validate` holds the whole table in the core.
export const REPORTED = {
  /** TPM with the id cache at 1 (the bug). */
  cacheOneTpm: 106_000,
  /** TPM with the cache at 1000 (the fix). */
  cacheThousandTpm: 158_000,
};

/** "106k": a reported TPM as the texts quote it. */
export const k = (tpm) => `${Math.round(tpm / 1000)}k`;
