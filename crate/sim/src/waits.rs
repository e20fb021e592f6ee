//! Who waits for whom: the *class* of a lock request, which the lock table integrates
//! its waits by (`locks.rs`) and hot rows report (`heat.rs`): the transaction's kind and
//! what its operation does to the row.

use crate::config::Config;
use crate::txn_kind::TxnKind;

/// The class of the shared entry a row's wait split ends with when it is full.
pub const OTHER_CLASS: u16 = u16::MAX;

/// The class of a lock request: its transaction's kind and whether its operation inserts
/// the row (else it updates or deletes it).
pub fn class(kind: TxnKind, insert: bool) -> u16 {
    kind.index() as u16 * 2 + insert as u16
}

/// The name reports give transactions of `kind`: DBT2's and the refill's own, a spec
/// transaction's from `cfg`'s spec (`latencyByTypeUs.newOrder`, `.transfer`).
pub fn kind_name(cfg: &Config, kind: TxnKind) -> String {
    if let Some(name) = kind.builtin_name() {
        return name.to_string();
    }
    let i = kind.spec_index().expect("not built in: a spec's");
    cfg.workload.spec().and_then(|s| s.transactions.get(i)).map_or_else(|| format!("transaction{i}"), |x| x.name.clone())
}

/// A class in words, on a row of `table`: "transfer: update branches".
pub fn class_name(cfg: &Config, class: u16, table: &str) -> String {
    if class == OTHER_CLASS {
        return "others".to_string();
    }
    let kind = TxnKind::ALL[(class / 2) as usize];
    let verb = if class % 2 == 1 { "insert" } else { "update" };
    format!("{}: {verb} {table}", kind_name(cfg, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_name_the_transaction_and_what_it_does() {
        let cfg = Config::default();
        assert_eq!(class_name(&cfg, class(TxnKind::PAYMENT, false), "warehouse"), "payment: update warehouse");
        assert_eq!(class_name(&cfg, class(TxnKind::PAYMENT, true), "history"), "payment: insert history");
        assert_eq!(class_name(&cfg, class(TxnKind::REFILL, false), "SYSTAB_0"), "refill: update SYSTAB_0");
        assert_eq!(class_name(&cfg, OTHER_CLASS, "x"), "others");
    }
}
