//! The metrics' hot rows: each primary lock released, waited for and requested goes to the
//! window's and the run's row heat (`heat.rs`), the run's restarted at the end of the
//! warm-up; and the swarm's audit, every row's releases counted one by one beside them.

use super::Metrics;
use crate::heat::{HashedRow, Hold, RowLockTotals};
use crate::locks::WaitPart;
use crate::time::Ns;

impl Metrics {
    /// `row`'s primary lock on `node` was held as `hold` says (released at `now`) by a
    /// holder of class `holder`; `parts` is the wait it caused per waiting class.
    pub fn row_held(&mut self, row: u64, node: u32, hold: Hold, holder: u16, parts: &[WaitPart], now: Ns) {
        let hashed = HashedRow::new(row);
        let admit = self.door.came_back(hashed);
        self.window_heat.held(hashed, node, hold, admit, holder, parts, now);
        self.measure_heat(now);
        self.heat.held(hashed, node, hold, admit, holder, parts, now);
        if self.audit.is_some() {
            self.audit_release(row, now);
        }
    }

    #[cold]
    fn audit_release(&mut self, row: u64, now: Ns) {
        if let Some(audit) = self.audit.as_mut().filter(|_| now >= self.warmup_end_ns) {
            *audit.entry(row).or_default() += 1;
        }
    }

    /// Counts every row's releases exactly from now on (memory grows with the rows).
    pub fn audit_rows(&mut self) {
        self.audit.get_or_insert_with(Default::default);
    }

    /// The run's listed rows hold to the exact counts: a row tracked from the end of the
    /// warm-up was granted exactly as often as it was released since; a row tracked from
    /// later, no more often.
    pub fn check_hot_rows(&self, now: Ns) -> Result<(), String> {
        let Some(audit) = self.audit.as_ref().filter(|_| now >= self.warmup_end_ns) else { return Ok(()) };
        for r in self.run_rows(now) {
            let exact = audit.get(&r.row).copied().unwrap_or(0);
            let from_start = r.since_ns <= self.warmup_end_ns;
            if (from_start && r.grants != exact) || r.grants > exact {
                return Err(format!(
                    "row {:#x} counted from {} ns: {} grants listed, {exact} released (warm-up ends at {} ns)",
                    r.row, r.since_ns, r.grants, self.warmup_end_ns
                ));
            }
        }
        Ok(())
    }

    /// A request for `row`'s primary lock had waited (granted at `now`).
    pub fn row_waited(&mut self, row: u64, now: Ns) {
        let hashed = HashedRow::new(row);
        self.window_heat.waited(hashed, now);
        self.measure_heat(now);
        self.heat.waited(hashed, now);
    }

    /// `row`'s primary lock was requested (counted for a row the run tracks: its
    /// demand, which a convoy's growing queue does not hold back as it holds grants).
    #[inline]
    pub fn row_requested(&mut self, row: u64) {
        // (No restart here: the first release after warm-up restarts the heat, and the
        // requests made since, a few at most, count from then.) The window's too: a batch
        // of windows weighs its rows' demand as the run does (`metrics/batches.rs`).
        let hashed = HashedRow::new(row);
        self.window_heat.requested(hashed);
        self.heat.requested(hashed);
    }

    /// At the first row event after warm-up, the run's heat restarts at its end.
    #[inline]
    fn measure_heat(&mut self, now: Ns) {
        if !self.heat_measuring && now >= self.warmup_end_ns {
            self.heat.restart(self.warmup_end_ns);
            self.heat_measuring = true;
        }
    }

    /// The run's tracked rows at `now`: after warm-up, counted from its end (none before a
    /// row was released since); before, the warm-up's so far.
    pub fn run_rows(&self, now: Ns) -> Vec<RowLockTotals> {
        self.run_heat(now).map_or_else(Vec::new, |h| h.top_all(now))
    }

    /// The run's busiest rows at `now` (`run_rows`, the report's ten).
    pub fn run_top_rows(&self, now: Ns) -> Vec<RowLockTotals> {
        self.run_heat(now).map_or_else(Vec::new, |h| h.top(now))
    }

    /// The run's heat at `now`, unless the warm-up is over and no row was released since
    /// (it still holds the warm-up's counts then).
    fn run_heat(&self, now: Ns) -> Option<&crate::heat::RowHeat> {
        (now < self.warmup_end_ns || self.heat_measuring).then_some(&self.heat)
    }
}
