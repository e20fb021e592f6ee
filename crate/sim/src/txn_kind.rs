//! Transaction kinds: what metrics count per kind and reports name.

/// A kind of transaction: one of DBT2's five, the allocator's refill, or transaction `i`
/// of a workload spec. Metrics count per kind; the index layout keeps the kinds of
/// earlier versions where they were (a spec's first transaction is where the built-in
/// insert was), so run digests of those workloads did not move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxnKind(u8);

/// Most transactions a workload spec's mix may have.
pub const MAX_SPEC_TRANSACTIONS: usize = 10;

/// Kinds there are: DBT2's 5, the refill, and a spec's up to `MAX_SPEC_TRANSACTIONS`.
pub const TXN_KINDS: usize = 6 + MAX_SPEC_TRANSACTIONS;

impl TxnKind {
    pub const NEW_ORDER: TxnKind = TxnKind(0);
    pub const PAYMENT: TxnKind = TxnKind(1);
    pub const ORDER_STATUS: TxnKind = TxnKind(2);
    pub const DELIVERY: TxnKind = TxnKind(3);
    pub const STOCK_LEVEL: TxnKind = TxnKind(4);
    pub const REFILL: TxnKind = TxnKind(6);

    /// Every kind, in index order.
    pub const ALL: [TxnKind; TXN_KINDS] = {
        let mut all = [TxnKind(0); TXN_KINDS];
        let mut i = 0;
        while i < TXN_KINDS {
            all[i] = TxnKind(i as u8);
            i += 1;
        }
        all
    };

    /// Transaction `i` of a workload spec.
    pub const fn spec(i: usize) -> TxnKind {
        TxnKind(if i == 0 { 5 } else { 6 + i as u8 })
    }

    /// Which transaction of a spec this is, if it is one.
    pub fn spec_index(self) -> Option<usize> {
        match self.0 {
            5 => Some(0),
            k if k > 6 => Some(k as usize - 6),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The name reports use for DBT2's kinds and the refill (`latencyByTypeUs.newOrder`);
    /// a spec's transactions are named by the spec.
    pub fn builtin_name(self) -> Option<&'static str> {
        ["newOrder", "payment", "orderStatus", "delivery", "stockLevel", "", "refill"]
            .get(self.0 as usize)
            .copied()
            .filter(|n| !n.is_empty())
    }

    /// A transaction a client asked for; refills are the allocator's own.
    pub fn is_user(self) -> bool {
        self != TxnKind::REFILL
    }
}
